package house

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/gocute/cute/"

// floor returns the floor of a package path relative to the module.
func floor(rel string) (int, bool) {
	if f, ok := Floors[rel]; ok {
		return f, true
	}
	for _, top := range []string{"cmd/", "examples/", "tools/", "playground/wasm"} {
		if strings.HasPrefix(rel, top) {
			return 8, true
		}
	}
	return 0, false
}

// TestNothingImportsUpward walks every package of the module (nested
// modules and testdata excluded) and checks that each has a floor and
// imports, in its library code, only packages on its floor or below.
func TestNothingImportsUpward(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var checked []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		if path != root {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module
			}
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			return nil // no Go files here
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		f, ok := floor(rel)
		if !ok {
			t.Errorf("package %s has no floor: add it to house.Floors", rel)
			return nil
		}
		checked = append(checked, rel)
		for _, imp := range pkg.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			dep := strings.TrimPrefix(imp, module)
			if dep == rel {
				continue
			}
			g, ok := floor(dep)
			if !ok {
				t.Errorf("%s imports %s, which has no floor", rel, dep)
				continue
			}
			if g > f {
				t.Errorf("%s (floor %d) imports %s (floor %d): nothing may import upward", rel, f, dep, g)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(checked)
	if len(checked) < 20 {
		t.Fatalf("checked only %d packages: %v", len(checked), checked)
	}
	for rel := range Floors {
		if sort.SearchStrings(checked, rel) == len(checked) || checked[sort.SearchStrings(checked, rel)] != rel {
			t.Errorf("house.Floors lists %s, which is not a package of the module", rel)
		}
	}
}
