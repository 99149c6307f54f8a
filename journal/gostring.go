package journal

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// GoString renders e as Go syntax that builds it, naming only the fields
// that are set. It is what %#v prints, and so what testify's assert.Equal
// shows as "expected" and "actual" above its diff: the dozen fields an
// entry has set rather than every one of its fifty. The diff below it is
// testify's own field-by-field dump, which this does not change.
func (e Entry) GoString() string {
	var b strings.Builder
	writeGo(&b, reflect.ValueOf(e))
	return b.String()
}

var timeType = reflect.TypeFor[time.Time]()

// writeGo writes v as a Go expression: structs as composite literals of
// their non-zero fields, pointers to basic values with new, and the rest
// as fmt's %#v writes it.
func writeGo(b *strings.Builder, v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == timeType {
			fmt.Fprintf(b, "%#v", v.Interface())
			return
		}
		b.WriteString(v.Type().String() + "{")
		sep := ""
		for i := range v.NumField() {
			f := v.Field(i)
			if !v.Type().Field(i).IsExported() || f.IsZero() {
				continue
			}
			b.WriteString(sep + v.Type().Field(i).Name + ": ")
			writeGo(b, f)
			sep = ", "
		}
		b.WriteString("}")
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if v.Elem().Kind() == reflect.Struct {
			b.WriteString("&")
			writeGo(b, v.Elem())
			return
		}
		b.WriteString("new(" + v.Elem().Type().String() + "(")
		writeGo(b, v.Elem())
		b.WriteString("))")
	case reflect.Slice:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString(v.Type().String() + "{")
		for i := range v.Len() {
			if i > 0 {
				b.WriteString(", ")
			}
			writeGo(b, v.Index(i))
		}
		b.WriteString("}")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Type() == reflect.TypeFor[time.Duration]() {
			fmt.Fprintf(b, "time.Duration(%d)", v.Int())
			return
		}
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	default:
		fmt.Fprintf(b, "%#v", v.Interface())
	}
}
