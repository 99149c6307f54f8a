package anthropicsdk_test

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2/packages/respjson"
)

// missingRequired walks v, a value the SDK decoded, and returns the path
// of every field tagged api:"required" that the response left out (null
// is present): the SDK decodes a missing field as its zero value without
// an error, so only this walk tells it from a sent one. A union is walked
// as the variant it decoded to (its AsAny), and a null value is not
// walked into.
func missingRequired(t *testing.T, v any) []string {
	t.Helper()
	var missing []string
	var walk func(path string, v reflect.Value)
	walk = func(path string, v reflect.Value) {
		if asAny := v.MethodByName("AsAny"); asAny.IsValid() && asAny.Type().NumIn() == 0 && asAny.Type().NumOut() == 1 {
			if variant := asAny.Call(nil)[0]; variant.IsValid() && !(variant.Kind() == reflect.Interface && variant.IsNil()) {
				walk(path, variant)
			}
			return
		}
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(path, v.Elem())
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(path+"["+strconv.Itoa(i)+"]", v.Index(i))
			}
		case reflect.Struct:
			meta := v.FieldByName("JSON")
			if !meta.IsValid() || meta.Kind() != reflect.Struct {
				return
			}
			for i := range v.NumField() {
				f := v.Type().Field(i)
				if !f.IsExported() || f.Name == "JSON" {
					continue
				}
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				if m := meta.FieldByName(f.Name); m.IsValid() {
					field, ok := m.Interface().(respjson.Field)
					if ok && field.Raw() == "" && strings.Contains(f.Tag.Get("api"), "required") {
						missing = append(missing, path+"."+name)
						continue
					}
					if ok && field.Raw() == "null" {
						continue
					}
				}
				walk(path+"."+name, v.Field(i))
			}
		}
	}
	walk("", reflect.ValueOf(v))
	return missing
}
