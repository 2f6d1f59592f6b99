/*
 * A profile runtime for Rust's source-based coverage on x86_64-pc-windows-gnu.
 *
 * `rustc -C instrument-coverage` links a crate named profiler_builtins into
 * every instrumented program; that crate carries LLVM's profile runtime,
 * which writes the program's counters to a .profraw file when it exits.
 * Debian ships that runtime for Linux only, and the LLVM sources it is built
 * from are not among the packages this project can install, so
 * scripts/rust-profiler.sh builds this file with mingw-w64 in its place.
 *
 * It does the one thing coverage needs: at exit, dump the sections the
 * compiler filled (per-function records, counters, bitmap bytes, names) as
 * one raw profile, version 10, the format of LLVM 19 to 22, which
 * `llvm-profdata merge` turns into an indexed profile for `llvm-cov`. No
 * value profiling, no continuous mode, no online merging (%m), no binary
 * ids: coverage uses none of them.
 *
 * The layout follows LLVM's description of the raw format
 * (llvm/docs/InstrProfileFormat.rst): a header of sixteen 64-bit words,
 * then the record, counter, bitmap and name sections as they are in
 * memory, each padded to 8 bytes.
 *
 * Everything is done with kernel32 calls, not the C library's stdio, because
 * the file may be written from inside ExitProcess (see exit_process_hook),
 * when the C runtime may already be shutting down.
 *
 * Built by scripts/rust-profiler.sh with x86_64-w64-mingw32-gcc; the
 * programs it goes into must be linked by lld (see that script).
 */
#include <windows.h>
#include <stdint.h>
#include <string.h>

#define RAW_MAGIC UINT64_C(0xff6c70726f667281) /* "\xfflprofr\x81", 64-bit */
#define RAW_VERSION 10
#define DATA_RECORD_SIZE 64 /* sizeof(__llvm_profile_data) in version 10 */
#define VALUE_KIND_LAST 2   /* indirect call, memop size, vtable target */

/*
 * The compiler puts each kind of profile data into a COFF section named
 * ".lprf?$M". The linker sorts sections of one name by what follows the
 * '$', so an empty array in "$A" marks where the compiler's data begins and
 * one in "$Z" where it ends. (Before the "$Z" of the names there may be
 * a few zero bytes of alignment padding, which readers of names skip.)
 *
 * The names section is the exception: llvm-cov, reading names from a
 * linked PE file, drops its first byte, which LLVM's own runtime fills with
 * a NUL in ".lprfn$A". So this marker is exactly one NUL byte. It is
 * written in assembly because a C object would get the assembler's default
 * section alignment of four, and the padding would be read as names.
 */
#define MARKER(type, name, sect) __attribute__((section(sect), used)) type name[0]

MARKER(uint64_t, data_first, ".lprfd$A");
MARKER(uint64_t, data_last, ".lprfd$Z");
MARKER(uint64_t, counters_first, ".lprfc$A");
MARKER(uint64_t, counters_last, ".lprfc$Z");
MARKER(char, bitmap_first, ".lprfb$A");
MARKER(char, bitmap_last, ".lprfb$Z");
extern const char names_first[1];
__asm__(".section .lprfn$A,\"dr0\"\n" /* "0": aligned to 2^0 bytes */
	"names_first:\n"
	"\t.byte 0\n"
	"\t.text\n");
MARKER(const char, names_last, ".lprfn$Z");

/*
 * Instrumented code refers to this symbol so that the linker pulls the
 * runtime in; its value is never read.
 */
int __llvm_profile_runtime;

/*
 * The raw profile's version word. Front-end instrumentation, which Rust's
 * coverage is, leaves it to the runtime; IR-level instrumentation defines
 * its own, with flag bits above the low byte, and then that one wins.
 */
__attribute__((weak)) const uint64_t __llvm_profile_raw_version = RAW_VERSION;

static uint64_t raw_version(void)
{
	return __llvm_profile_raw_version;
}

/*
 * The size of a section from its two markers. A kind of data the program
 * has none of leaves both markers in empty sections, which the linker may
 * drop and place anywhere: that is an empty section, not a negative size.
 */
static uint64_t span(const char *first, const char *last)
{
	return last > first ? (uint64_t)(last - first) : 0;
}

static uint64_t padding_to_8(uint64_t n)
{
	return (8 - n % 8) % 8;
}

static void report(const char *msg)
{
	DWORD written;
	HANDLE err = GetStdHandle(STD_ERROR_HANDLE);
	if (err != NULL && err != INVALID_HANDLE_VALUE) {
		WriteFile(err, msg, (DWORD)lstrlenA(msg), &written, NULL);
	}
}

static int write_all(HANDLE f, const void *buf, uint64_t size)
{
	const char *p = buf;
	while (size > 0) {
		DWORD chunk = size > 0x40000000 ? 0x40000000 : (DWORD)size;
		DWORD written = 0;
		if (!WriteFile(f, p, chunk, &written, NULL) || written == 0) {
			return 0;
		}
		p += written;
		size -= written;
	}
	return 1;
}

/*
 * Appends the decimal form of v to out at *len, keeping the result
 * NUL-terminated within cap bytes.
 */
static void append_decimal(char *out, size_t *len, size_t cap, unsigned long v)
{
	char digits[24];
	int n = 0;
	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	while (n > 0 && *len + 1 < cap) {
		out[(*len)++] = digits[--n];
	}
	out[*len] = '\0';
}

/*
 * Expands LLVM_PROFILE_FILE (default "default.profraw") into out: %p is the
 * process id, %% a percent sign; any other %-sequence is kept as written.
 * Returns 0 when the name does not fit.
 */
static int profile_path(char *out, size_t cap)
{
	char pattern[MAX_PATH];
	DWORD n = GetEnvironmentVariableA("LLVM_PROFILE_FILE", pattern, sizeof pattern);
	if (n == 0) {
		lstrcpyA(pattern, "default.profraw");
	} else if (n >= sizeof pattern) {
		return 0;
	}
	size_t len = 0;
	out[0] = '\0';
	for (const char *p = pattern; *p != '\0'; p++) {
		if (p[0] == '%' && p[1] == 'p') {
			append_decimal(out, &len, cap, GetCurrentProcessId());
			p++;
			continue;
		}
		if (p[0] == '%' && p[1] == '%') {
			p++;
		}
		if (len + 1 >= cap) {
			return 0;
		}
		out[len++] = *p;
		out[len] = '\0';
	}
	return len > 0;
}

/*
 * Creates the profile file without ever replacing one: process ids come
 * back soon under Wine, and a later test program must not overwrite what
 * an earlier one wrote. When the name is taken, ".1", ".2", ... is
 * appended.
 */
static HANDLE create_profile(const char *path)
{
	char name[MAX_PATH + 16];
	for (unsigned long attempt = 0; attempt < 1000; attempt++) {
		size_t len = 0;
		name[0] = '\0';
		while (path[len] != '\0') {
			name[len] = path[len];
			len++;
		}
		name[len] = '\0';
		if (attempt > 0) {
			name[len++] = '.';
			name[len] = '\0';
			append_decimal(name, &len, sizeof name, attempt);
		}
		HANDLE f = CreateFileA(name, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
		if (f != INVALID_HANDLE_VALUE || GetLastError() != ERROR_FILE_EXISTS) {
			return f;
		}
	}
	return INVALID_HANDLE_VALUE;
}

/*
 * Where, in a per-function record, the two section-relative pointers are:
 * the distance from the record to its counters and to its bitmap bytes.
 */
#define RECORD_COUNTER_PTR 16
#define RECORD_BITMAP_PTR 24

/*
 * Restores the sign of a record's relative pointer. The compiler writes
 * each as a 64-bit "target minus record" difference, but a COFF object can
 * only express that as a 32-bit relocation, so the linker fills the low
 * half and the high half stays zero. Counters laid out before the records
 * (as lld places them) give negative distances, which would then read as
 * offsets four gigabytes away. Real distances are far below 2 GiB.
 */
static void fix_relative_pointer(char *record, size_t at)
{
	uint64_t v;
	memcpy(&v, record + at, sizeof v);
	if (v >> 32 == 0) {
		v = (uint64_t)(int64_t)(int32_t)(uint32_t)v;
		memcpy(record + at, &v, sizeof v);
	}
}

/* Writes the per-function records, each with its pointers repaired. */
static int write_records(HANDLE f, const char *data, uint64_t size)
{
	char buf[DATA_RECORD_SIZE * 64];
	uint64_t used = 0;
	for (uint64_t off = 0; off < size; off += DATA_RECORD_SIZE) {
		char *record = buf + used;
		memcpy(record, data + off, DATA_RECORD_SIZE);
		fix_relative_pointer(record, RECORD_COUNTER_PTR);
		fix_relative_pointer(record, RECORD_BITMAP_PTR);
		used += DATA_RECORD_SIZE;
		if (used == sizeof buf) {
			if (!write_all(f, buf, used)) {
				return 0;
			}
			used = 0;
		}
	}
	return write_all(f, buf, used);
}

static void write_profile(void)
{
	static LONG done;
	if (InterlockedExchange(&done, 1) != 0) {
		return; /* already written, by the other exit path */
	}
	if ((raw_version() & 0xff) != RAW_VERSION) {
		report("osbench profile runtime: the compiler's raw profile version is not 10; no profile written\n");
		return;
	}

	const char *data = (const char *)data_first;
	const char *data_end = (const char *)data_last;
	const char *counters = (const char *)counters_first;
	const char *counters_end = (const char *)counters_last;
	const char *bitmap = bitmap_first;
	const char *bitmap_end = bitmap_last;
	const char *names = names_first + sizeof names_first;
	const char *names_end = names_last;
	uint64_t data_size = span(data, data_end);
	uint64_t counters_size = span(counters, counters_end);
	uint64_t bitmap_size = span(bitmap, bitmap_end);
	uint64_t names_size = span(names, names_end);
	if (data_size % DATA_RECORD_SIZE != 0 || counters_size % 8 != 0) {
		report("osbench profile runtime: profile sections are not laid out as expected; no profile written\n");
		return;
	}

	uint64_t header[16] = {
		RAW_MAGIC,
		raw_version(),
		0, /* binary ids: none */
		data_size / DATA_RECORD_SIZE,
		0, /* padding before counters */
		counters_size / 8,
		0, /* padding after counters: each is 8 bytes */
		bitmap_size,
		padding_to_8(bitmap_size),
		names_size,
		(uint64_t)(uintptr_t)counters - (uint64_t)(uintptr_t)data,
		(uint64_t)(uintptr_t)bitmap - (uint64_t)(uintptr_t)data,
		(uint64_t)(uintptr_t)names,
		0, /* vtable records */
		0, /* vtable names */
		VALUE_KIND_LAST,
	};
	static const char zeros[8];

	char path[MAX_PATH];
	if (!profile_path(path, sizeof path)) {
		report("osbench profile runtime: LLVM_PROFILE_FILE is too long; no profile written\n");
		return;
	}
	HANDLE f = create_profile(path);
	if (f == INVALID_HANDLE_VALUE) {
		report("osbench profile runtime: cannot create the profile file; no profile written\n");
		return;
	}
	int ok = write_all(f, header, sizeof header) &&
		 write_records(f, data, data_size) &&
		 write_all(f, counters, counters_size) &&
		 write_all(f, bitmap, bitmap_size) &&
		 write_all(f, zeros, padding_to_8(bitmap_size)) &&
		 write_all(f, names, names_size) &&
		 write_all(f, zeros, padding_to_8(names_size));
	CloseHandle(f);
	if (!ok) {
		report("osbench profile runtime: writing the profile file failed\n");
	}
}

/*
 * Two exit paths, one write. A program whose main returns leaves through
 * the C runtime's exit, which runs atexit handlers. Rust's
 * std::process::exit, which libtest calls when a test failed, goes straight
 * to kernel32's ExitProcess, which skips them; Windows would still call the
 * program's TLS callbacks, but Wine does not, so the runtime reroutes the
 * program's own calls to ExitProcess through exit_process_hook instead.
 */
typedef void(WINAPI *exit_process_fn)(UINT);
static exit_process_fn real_exit_process;

static void WINAPI exit_process_hook(UINT code)
{
	write_profile();
	real_exit_process(code);
}

/*
 * Points every import of ExitProcess in the program's import address table
 * at exit_process_hook. DLLs keep their own tables and are left alone.
 */
static void hook_exit_process(void)
{
	real_exit_process = (exit_process_fn)(void (*)(void))GetProcAddress(GetModuleHandleA("kernel32.dll"), "ExitProcess");
	if (real_exit_process == NULL) {
		return;
	}
	BYTE *base = (BYTE *)GetModuleHandleA(NULL);
	IMAGE_NT_HEADERS64 *nt = (IMAGE_NT_HEADERS64 *)(base + ((IMAGE_DOS_HEADER *)base)->e_lfanew);
	IMAGE_DATA_DIRECTORY imports = nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_IMPORT];
	if (imports.VirtualAddress == 0) {
		return;
	}
	for (IMAGE_IMPORT_DESCRIPTOR *dll = (IMAGE_IMPORT_DESCRIPTOR *)(base + imports.VirtualAddress); dll->Name != 0; dll++) {
		if (dll->OriginalFirstThunk == 0) {
			continue; /* no name table: the slots alone do not say what they hold */
		}
		IMAGE_THUNK_DATA64 *name = (IMAGE_THUNK_DATA64 *)(base + dll->OriginalFirstThunk);
		IMAGE_THUNK_DATA64 *slot = (IMAGE_THUNK_DATA64 *)(base + dll->FirstThunk);
		for (; name->u1.AddressOfData != 0; name++, slot++) {
			if (IMAGE_SNAP_BY_ORDINAL64(name->u1.Ordinal)) {
				continue;
			}
			IMAGE_IMPORT_BY_NAME *import = (IMAGE_IMPORT_BY_NAME *)(base + name->u1.AddressOfData);
			if (lstrcmpA((const char *)import->Name, "ExitProcess") != 0) {
				continue;
			}
			DWORD protection;
			if (VirtualProtect(&slot->u1.Function, sizeof slot->u1.Function, PAGE_READWRITE, &protection)) {
				slot->u1.Function = (ULONGLONG)(uintptr_t)exit_process_hook;
				VirtualProtect(&slot->u1.Function, sizeof slot->u1.Function, protection, &protection);
			}
		}
	}
}

extern int atexit(void (*)(void));

__attribute__((constructor)) static void install_exit_hooks(void)
{
	atexit(write_profile);
	hook_exit_process();
}
