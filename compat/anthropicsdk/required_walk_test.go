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
// an error, so only this walk tells it from a sent one.
func missingRequired(t *testing.T, v any) []string {
	t.Helper()
	var missing []string
	var walk func(path string, v reflect.Value)
	walk = func(path string, v reflect.Value) {
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
				if m := meta.FieldByName(f.Name); m.IsValid() && strings.Contains(f.Tag.Get("api"), "required") {
					if field, ok := m.Interface().(respjson.Field); ok && field.Raw() == "" {
						missing = append(missing, path+"."+name)
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
