package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/llmtestserver/llmtestserver/session"
)

// startupField is the configuration file's field that holds the default
// runtime's configuration, in the JSON of POST /admin-api/sessions.
const startupField = "startup"

// applyConfigFile reads the configuration file s.configFile into the
// settings that neither the command line nor the environment set (those
// in origin), and its "startup" into s.startup. The file is one JSON
// object: each setting under its flag's name with '_' for '-' (a string,
// a number for counts and sizes, a boolean for a switch; durations as
// strings such as "5s"),
// and "startup". Unknown fields are refused, so that a misspelt setting is
// an error rather than ignored.
func applyConfigFile(fs *flag.FlagSet, s *settings, origin map[string]string) error {
	path := s.configFile
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("config file: %w", err)
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("config file %s: "+format, append([]any{path}, args...)...)
	}
	var fields map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&fields); err != nil {
		return fail("not a JSON object: %v", strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fail("trailing data after the JSON object")
	}
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names) // the first bad field is the same one every time
	for _, field := range names {
		raw := fields[field]
		if field == startupField {
			cfg, err := session.ParseConfig(raw, session.DefaultConfig())
			var cfgErr *session.ConfigError
			switch {
			case errors.As(err, &cfgErr) && cfgErr.Field != "":
				return fail("field %q: %s", startupField+"."+cfgErr.Field, cfgErr.Reason)
			case errors.As(err, &cfgErr):
				return fail("field %q: %s", startupField, cfgErr.Reason)
			case err != nil:
				return fail("field %q: %v", startupField, err)
			}
			s.startup = cfg
			continue
		}
		name := strings.ReplaceAll(field, "_", "-")
		if f := fs.Lookup(name); f == nil || notSettings[name] || name == "config" || fileField(name) != field {
			return fail("unknown field %q (known: %s)", field, strings.Join(knownFields(fs), ", "))
		}
		value, ok, err := scalar(raw)
		if err != nil {
			return fail("field %q: %v", field, err)
		}
		if !ok || origin[name] != "" {
			continue // null, or set by the environment or a flag, which win
		}
		if err := fs.Set(name, value); err != nil {
			return fail("field %q: invalid value %s: %v", field, raw, unwrapFlagError(err))
		}
		origin[name] = fmt.Sprintf("field %q of config file %s", field, path)
	}
	return nil
}

// scalar returns the text of a JSON string, number or boolean, as a flag
// takes it (a boolean for a switch such as a later -dashboard); ok is false
// for null.
func scalar(raw json.RawMessage) (value string, ok bool, err error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "", false, err
	}
	switch v := v.(type) {
	case nil:
		return "", false, nil
	case string:
		return v, true, nil
	case json.Number:
		return v.String(), true, nil
	case bool:
		return fmt.Sprint(v), true, nil
	case []any:
		// Not the value itself: the field may be the management key.
		return "", false, errors.New("want a string, a number or a boolean, got an array")
	default:
		return "", false, errors.New("want a string, a number or a boolean, got an object")
	}
}

// knownFields lists the configuration file's fields, for the error that
// refuses an unknown one.
func knownFields(fs *flag.FlagSet) []string {
	var out []string
	fs.VisitAll(func(f *flag.Flag) {
		if !notSettings[f.Name] && f.Name != "config" {
			out = append(out, fileField(f.Name))
		}
	})
	return append(out, startupField)
}
