package engine

import (
	"fmt"
	"reflect"
	"strings"
)

// Fields turns a step's typed configuration into the fields of its key.
// cfg is the step package's own Config struct (or a pointer to one), the
// same type the step decodes with RunContext.DecodeConfig, so the compiler
// cannot name a field the step does not have: a misspelt field does not
// compile.
//
// Every exported field with a json tag is one Field, named by the tag, in
// declaration order; an embedded struct's fields come in its place. A field tagged omitempty is left out at its zero value
// (so a setting added later keeps the keys of configurations that do not
// use it); nil maps and slices of the other fields enter as {} and [],
// never null, so a key does not tell "none" from "empty". source gives the
// manifest position of a field by name ("" when it has none); nil means no
// positions.
//
// A cfg that is not a struct is a programming error of the compiler and
// panics, like regexp.MustCompile.
func Fields(cfg any, source func(name string) string) []Field {
	v := reflect.ValueOf(cfg)
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		panic(fmt.Sprintf("engine.Fields: %T is not a struct", cfg))
	}
	return appendFields(nil, v, source)
}

// appendFields adds the fields of the struct value v; an embedded struct
// without a json tag gives its own fields in its place, as encoding/json
// (and so DecodeConfig) flattens it.
func appendFields(fields []Field, v reflect.Value, source func(name string) string) []Field {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if _, tagged := sf.Tag.Lookup("json"); sf.Anonymous && !tagged && sf.Type.Kind() == reflect.Struct {
			fields = appendFields(fields, v.Field(i), source)
			continue
		}
		name, omitEmpty, ok := jsonName(sf)
		if !ok {
			continue
		}
		fv := v.Field(i)
		if omitEmpty && fv.IsZero() {
			continue
		}
		value := fv.Interface()
		if nilable(fv.Kind()) && fv.IsNil() {
			switch fv.Kind() {
			case reflect.Map:
				value = reflect.MakeMap(fv.Type()).Interface()
			case reflect.Slice:
				value = reflect.MakeSlice(fv.Type(), 0, 0).Interface()
			}
		}
		f := Field{Name: name, Value: value}
		if source != nil {
			f.Source = source(name)
		}
		fields = append(fields, f)
	}
	return fields
}

// jsonName reads the json tag of an exported struct field.
func jsonName(sf reflect.StructField) (name string, omitEmpty, ok bool) {
	if !sf.IsExported() {
		return "", false, false
	}
	tag, has := sf.Tag.Lookup("json")
	if !has || tag == "-" {
		return "", false, false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = sf.Name
	}
	for _, o := range strings.Split(opts, ",") {
		if o == "omitempty" {
			omitEmpty = true
		}
	}
	return name, omitEmpty, true
}

func nilable(k reflect.Kind) bool {
	switch k {
	case reflect.Map, reflect.Slice, reflect.Pointer, reflect.Interface:
		return true
	}
	return false
}
