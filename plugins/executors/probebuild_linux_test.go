package executors

import (
	"path/filepath"
	"testing"
)

// More places the probes of issue 19 run from: code of a patch that runs
// while the repository is built, not as a test program — a Rust build
// script (cargo runs it on the host, for a Windows target too), a CMake
// custom command at build time, and a C test program built by CMake,
// natively or cross-built by mingw-w64 and run by Wine from a build step.

// probeBuildRS is the Rust probe, a build.rs. cargo shows a build
// script's output only when it fails, so it writes its lines to
// probe.out in the package directory, which the command prints after the
// build.
const probeBuildRS = `use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::path::Path;
use std::time::Duration;

fn lines(name: &str) -> Vec<String> {
    std::fs::read_to_string(name)
        .expect(name)
        .lines()
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

fn line(reached: bool, what: String) -> String {
    format!("PROBE {} {}\n", if reached { "REACHED" } else { "BLOCKED" }, what)
}

fn main() {
    std::env::set_current_dir(std::env::var("CARGO_MANIFEST_DIR").unwrap()).unwrap();
    let mut out = String::new();
    for h in lines("hosts.txt") {
        let ok = (h.as_str(), 443).to_socket_addrs().map(|mut a| a.next().is_some()).unwrap_or(false);
        out += &line(ok, format!("resolve {}", h));
    }
    for a in lines("addrs.txt") {
        let ok = a.parse::<SocketAddr>().map(|sa| TcpStream::connect_timeout(&sa, Duration::from_secs(5)).is_ok()).unwrap_or(false);
        out += &line(ok, format!("connect {}", a));
    }
    for p in lines("paths.txt") {
        out += &line(Path::new(&p).exists(), format!("see {}", p));
    }
    std::fs::write("probe.out", out).unwrap();
    println!("cargo:rerun-if-changed=build.rs");
}
`

const probeCargoToml = `[package]
name = "probe"
version = "0.1.0"
edition = "2021"
build = "build.rs"
`

// probeCMakeBuild runs the bash probe from a custom command at build
// time (configure time is probeCMake's).
const probeCMakeBuild = `cmake_minimum_required(VERSION 3.13)
project(probe NONE)
add_custom_target(probe ALL COMMAND bash ${CMAKE_SOURCE_DIR}/probe.sh WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} VERBATIM)
`

// probeC is the C probe, a test program of the repository's: the same
// attempts through getaddrinfo, connect and stat, or Winsock and
// GetFileAttributesA when built by mingw-w64 for Wine.
const probeC = `#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#define CLOSE closesocket
#else
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#define CLOSE close
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void report(int reached, const char *what, const char *arg) {
	printf("PROBE %s %s %s\n", reached ? "REACHED" : "BLOCKED", what, arg);
	fflush(stdout);
}

static FILE *open_list(const char *name) {
	FILE *f = fopen(name, "r");
	if (!f) {
		perror(name);
		exit(1);
	}
	return f;
}

static int next_line(FILE *f, char *buf, int n) {
	while (fgets(buf, n, f)) {
		buf[strcspn(buf, "\r\n")] = 0;
		if (buf[0])
			return 1;
	}
	return 0;
}

int main(void) {
	char line[4096];
	FILE *f;
#ifdef _WIN32
	WSADATA wsa;
	WSAStartup(MAKEWORD(2, 2), &wsa);
	const char *paths = "paths-windows.txt";
#else
	const char *paths = "paths.txt";
#endif
	f = open_list("hosts.txt");
	while (next_line(f, line, sizeof line)) {
		struct addrinfo *res = NULL;
		int ok = getaddrinfo(line, "443", NULL, &res) == 0;
		if (res)
			freeaddrinfo(res);
		report(ok, "resolve", line);
	}
	fclose(f);
	f = open_list("addrs.txt");
	while (next_line(f, line, sizeof line)) {
		char *colon = strrchr(line, ':');
		struct sockaddr_in sa;
		int ok = 0, s;
		if (!colon)
			continue;
		*colon = 0;
		memset(&sa, 0, sizeof sa);
		sa.sin_family = AF_INET;
		sa.sin_port = htons((unsigned short)atoi(colon + 1));
		sa.sin_addr.s_addr = inet_addr(line);
		s = socket(AF_INET, SOCK_STREAM, 0);
		if (s >= 0) {
			ok = connect(s, (struct sockaddr *)&sa, sizeof sa) == 0;
			CLOSE(s);
		}
		*colon = ':';
		report(ok, "connect", line);
	}
	fclose(f);
	f = open_list(paths);
	while (next_line(f, line, sizeof line)) {
#ifdef _WIN32
		int ok = GetFileAttributesA(line) != INVALID_FILE_ATTRIBUTES;
#else
		struct stat st;
		int ok = stat(line, &st) == 0;
#endif
		report(ok, "see", line);
	}
	fclose(f);
	return 0;
}
`

// probeCTestCMake builds probeC and runs it from a build step, through
// Wine when cross-built (CMAKE_CROSSCOMPILING_EMULATOR, as the c-cmake
// preset's toolchain file sets it).
const probeCTestCMake = `cmake_minimum_required(VERSION 3.13)
project(cprobe C)
add_executable(cprobe probe.c)
if(WIN32)
  target_link_libraries(cprobe ws2_32)
endif()
add_custom_command(TARGET cprobe POST_BUILD
  COMMAND ${CMAKE_CROSSCOMPILING_EMULATOR} $<TARGET_FILE:cprobe>
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} VERBATIM)
`

// probeMingwToolchain is a CMake toolchain file for the mingw-w64 cross
// compiler, statically linked so Wine needs no mingw DLLs.
const probeMingwToolchain = `set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc)
set(CMAKE_CROSSCOMPILING_EMULATOR wine)
set(CMAKE_EXE_LINKER_FLAGS_INIT -static)
`

// setupBuildProbe writes the sources of one of the build-time probes
// into src and returns its command (run in src; build dirs go to work)
// and the kinds of attempt it makes. ok is false for a probe not of
// this file.
func setupBuildProbe(t *testing.T, probe, src, work string) (argv []string, env []string, kinds []string, ok bool) {
	t.Helper()
	build := filepath.Join(work, "build")
	switch probe {
	case "rust-build-script":
		writeFile(t, filepath.Join(src, "Cargo.toml"), probeCargoToml, 0o644)
		writeFile(t, filepath.Join(src, "build.rs"), probeBuildRS, 0o644)
		writeFile(t, filepath.Join(src, "src", "lib.rs"), "", 0o644)
		// cargo's own home and target dir in the work dir: nothing of
		// the host's.
		return []string{"sh", "-c", "cargo build --offline -q && cat probe.out"},
			[]string{"CARGO_HOME=" + filepath.Join(work, "cargo-home"), "CARGO_TARGET_DIR=" + filepath.Join(work, "target")},
			[]string{"resolve", "connect", "see"}, true
	case "cmake-build":
		writeFile(t, filepath.Join(src, "CMakeLists.txt"), probeCMakeBuild, 0o644)
		writeFile(t, filepath.Join(src, "probe.sh"), probeScript, 0o644)
		return []string{"sh", "-c", "cmake -S . -B " + build + " >/dev/null && cmake --build " + build},
			nil, []string{"resolve", "connect", "see"}, true
	case "c-test", "c-test-mingw":
		writeFile(t, filepath.Join(src, "CMakeLists.txt"), probeCTestCMake, 0o644)
		writeFile(t, filepath.Join(src, "probe.c"), probeC, 0o644)
		toolchain := ""
		if probe == "c-test-mingw" {
			writeFile(t, filepath.Join(src, "mingw.cmake"), probeMingwToolchain, 0o644)
			toolchain = " -DCMAKE_TOOLCHAIN_FILE=mingw.cmake"
		}
		return []string{"sh", "-c", "cmake -S . -B " + build + toolchain + " >/dev/null && cmake --build " + build},
			nil, []string{"resolve", "connect", "see"}, true
	}
	return nil, nil, nil, false
}
