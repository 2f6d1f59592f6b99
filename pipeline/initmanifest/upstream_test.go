package initmanifest

import "testing"

func TestUpstreamName(t *testing.T) {
	tests := []struct {
		pkg   string
		files map[string]string
		want  string
	}{
		{"libuv1", map[string]string{"CMakeLists.txt": "cmake_minimum_required(VERSION 3.4)\nproject(libuv LANGUAGES C)\n"}, "libuv"},
		{"libpng1.6", map[string]string{"CMakeLists.txt": "project(libpng C ASM)\n"}, "libpng"},
		{"libevent-2.1", map[string]string{"configure.ac": "AC_INIT([libevent], [2.1.12-stable], [bugs])\n"}, "libevent"},
		{"libsodium23", map[string]string{"configure.ac": "AC_INIT([libsodium],[1.0.18],\n  [https://github.com/jedisct1/libsodium/issues],\n"}, "libsodium"},
		// The digits are the project's own.
		{"libxml2", map[string]string{"CMakeLists.txt": "project(libxml2 VERSION 2.9.14 LANGUAGES C)\n"}, "libxml2"},
		// The project is called otherwise: the package's name stays.
		{"googletest", map[string]string{"CMakeLists.txt": "project(googletest-distribution)\n"}, "googletest"},
		{"c-ares", map[string]string{"CMakeLists.txt": "PROJECT (c-ares LANGUAGES C VERSION \"1.18.1\")\n"}, "c-ares"},
		{"nng", nil, "nng"},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			read := func(name string) []byte { return []byte(tt.files[name]) }
			if got := upstreamName(tt.pkg, read); got != tt.want {
				t.Errorf("upstreamName(%q) = %q, want %q", tt.pkg, got, tt.want)
			}
		})
	}
}
