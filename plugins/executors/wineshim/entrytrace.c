/*
 * osbench-entrytrace.exe: the Windows side of osbench's entry tracer.
 *
 * On Linux osbench watches a test binary with ptrace and counts a test as
 * run only when a thread of the binary executed the first instruction of
 * the test's function (plugins/entrytrace). Under Wine a PE image is not
 * exec'd but mapped by Wine's loader, and the wineserver ptraces its
 * clients itself, so the Linux tracer cannot follow it. This program does
 * the same with the Win32 debugging API, which Wine implements (winedbg
 * uses it): it starts the test program as its debuggee, puts an int3 on
 * the entry of every function osbench named, records each one a thread
 * executes, takes that breakpoint away and lets the thread go on. Every
 * other exception goes back to the program (Go's runtime takes access
 * violations through its own handlers).
 *
 * Usage: osbench-entrytrace.exe PLAN
 *
 * PLAN is a UTF-8 file osbench wrote where the test program cannot write
 * it (plugins/entrytrace/wine.go):
 *
 *   fd N              the Unix file descriptor the record goes to
 *   arm RVA NAME      a function to watch: hex offset from the image base
 *   run CMDLINE       the test program's command line (Windows quoting);
 *                     the last line
 *
 * The record, one line per fact, goes to Unix file descriptor N, a pipe
 * osbench reads outside the test sandbox. No Windows handle names it, so
 * the debuggee cannot reach it through Windows' own calls; the descriptor
 * is made close-on-exec before the debuggee is forked, so it does not
 * inherit it either. Writing to a Unix descriptor from a Windows program
 * takes a raw Linux system call, which is what a Windows program under
 * Wine on x86-64 Linux is able to make:
 *
 *   images 1          the debuggee was created (before any of its code ran)
 *   armed NAME        a breakpoint was set on NAME
 *   entered NAME      a thread executed NAME's first instruction
 *   exit CODE         the debuggee ended, with CODE (decimal)
 *
 * A record without "exit" means the debugger lost its debuggee (killed,
 * detached): osbench then denies every armed test's pass.
 *
 * The exit status is the debuggee's; 125 when the debugger itself failed
 * before the debuggee could run.
 */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { max_line = 65536 };

struct func {
    DWORD64 rva;
    char *name;
    BYTE saved;
    int armed;   /* its int3 is in place */
    int entered; /* a thread hit it; the int3 is gone */
};

static struct func *funcs;
static int nfuncs, cap_funcs;
static int record_fd = -1;

/* linux_syscall3 makes a Linux system call directly: under Wine a
 * Windows program is a Linux process. */
static long long linux_syscall3(long long nr, long long a, long long b, long long c)
{
    long long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(nr), "D"(a), "S"(b), "d"(c)
                     : "rcx", "r11", "memory");
    return ret;
}

enum { sys_write = 1, sys_fcntl = 72, f_setfd = 2, fd_cloexec = 1 };

/* emit writes one record line; a record that cannot be written ends the
 * run (the debuggee dies with the debugger), since evidence that silently
 * went missing would read as a lost debuggee anyway. */
static void emit(const char *kind, const char *value)
{
    static char line[max_line + 16];
    int n = snprintf(line, sizeof line, "%s %s\n", kind, value);
    if (n < 0 || n >= (int)sizeof line) {
        n = snprintf(line, sizeof line, "%s (name too long)\n", kind);
    }
    for (int off = 0; off < n;) {
        long long w = linux_syscall3(sys_write, record_fd, (long long)(line + off), n - off);
        if (w == -4 /* EINTR */) {
            continue;
        }
        if (w <= 0) {
            fprintf(stderr, "osbench-entrytrace: writing the record: error %lld\n", -w);
            ExitProcess(125);
        }
        off += (int)w;
    }
}

static void fail(const char *what)
{
    fprintf(stderr, "osbench-entrytrace: %s: error %lu\n", what, GetLastError());
    ExitProcess(125);
}

/* read_plan reads PLAN into funcs and returns the command line to run. */
static wchar_t *read_plan(const wchar_t *path)
{
    FILE *f = _wfopen(path, L"rb");
    static char line[max_line];
    wchar_t *cmdline = NULL;
    if (!f) {
        fprintf(stderr, "osbench-entrytrace: cannot open the plan %ls\n", path);
        ExitProcess(125);
    }
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (strncmp(line, "fd ", 3) == 0) {
            record_fd = atoi(line + 3);
        } else if (strncmp(line, "arm ", 4) == 0) {
            char *end;
            DWORD64 rva = _strtoui64(line + 4, &end, 16);
            if (*end != ' ' || rva == 0) {
                continue;
            }
            if (nfuncs == cap_funcs) {
                cap_funcs = cap_funcs ? 2 * cap_funcs : 256;
                funcs = realloc(funcs, cap_funcs * sizeof *funcs);
                if (!funcs) {
                    fail("reading the plan");
                }
            }
            funcs[nfuncs].rva = rva;
            funcs[nfuncs].armed = 0;
            funcs[nfuncs].entered = 0;
            if (!(funcs[nfuncs].name = _strdup(end + 1))) {
                fail("reading the plan");
            }
            nfuncs++;
        } else if (strncmp(line, "run ", 4) == 0) {
            int n = MultiByteToWideChar(CP_UTF8, 0, line + 4, -1, NULL, 0);
            cmdline = calloc(n, sizeof *cmdline);
            if (!cmdline || !MultiByteToWideChar(CP_UTF8, 0, line + 4, -1, cmdline, n)) {
                fail("reading the command line");
            }
        }
    }
    fclose(f);
    if (record_fd < 0 || !cmdline) {
        fprintf(stderr, "osbench-entrytrace: the plan %ls names no record fd or no command\n", path);
        ExitProcess(125);
    }
    return cmdline;
}

/* arm puts an int3 on the entry of every function of the plan. */
static void arm(HANDLE process, DWORD64 base)
{
    for (int i = 0; i < nfuncs; i++) {
        struct func *fn = &funcs[i];
        BYTE int3 = 0xCC;
        LPVOID at = (LPVOID)(base + fn->rva);
        if (!ReadProcessMemory(process, at, &fn->saved, 1, NULL) ||
            !WriteProcessMemory(process, at, &int3, 1, NULL)) {
            continue; /* not armed: its pass is not judged by entry */
        }
        fn->armed = 1;
        emit("armed", fn->name);
    }
    FlushInstructionCache(process, NULL, 0);
}

/* hit handles a breakpoint at addr in thread: 1 when it was one of ours
 * (recorded, taken away, the thread rewound onto the original byte), 0
 * when it was not. A breakpoint event is only counted when the thread
 * really stands on the int3 (its instruction pointer at or just after
 * it), so an event raised by hand (NtRaiseException with a made-up
 * address) that leaves the thread elsewhere enters nothing; one that puts
 * the thread there makes it execute the function, which is an entry. A
 * second thread that executed the same int3 before the first one's event
 * took it away is rewound too (its event comes after): the function was
 * entered once more, which the record need not say. */
static int hit(HANDLE process, DWORD thread, DWORD64 base, DWORD64 addr)
{
    for (int i = 0; i < nfuncs; i++) {
        struct func *fn = &funcs[i];
        if ((!fn->armed && !fn->entered) || base + fn->rva != addr) {
            continue;
        }
        HANDLE th = OpenThread(THREAD_GET_CONTEXT | THREAD_SET_CONTEXT, FALSE, thread);
        CONTEXT ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.ContextFlags = CONTEXT_CONTROL;
        if (!th || !GetThreadContext(th, &ctx)) {
            fail("reading a thread's context");
        }
        if (ctx.Rip != addr && ctx.Rip != addr + 1) {
            CloseHandle(th);
            return 0;
        }
        if (fn->armed) {
            if (!WriteProcessMemory(process, (LPVOID)addr, &fn->saved, 1, NULL)) {
                fail("taking a breakpoint away");
            }
            FlushInstructionCache(process, (LPVOID)addr, 1);
            fn->armed = 0;
            fn->entered = 1;
            emit("entered", fn->name);
        }
        ctx.Rip = addr;
        if (!SetThreadContext(th, &ctx)) {
            fail("rewinding a thread");
        }
        CloseHandle(th);
        return 1;
    }
    return 0;
}

int wmain(int argc, wchar_t **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: osbench-entrytrace.exe PLAN\n");
        return 125;
    }
    wchar_t *cmdline = read_plan(argv[1]);
    /* The debuggee is forked by this process (Wine's CreateProcess): it
     * must not inherit the record's descriptor. */
    if (linux_syscall3(sys_fcntl, record_fd, f_setfd, fd_cloexec) != 0) {
        fprintf(stderr, "osbench-entrytrace: the record descriptor %d is not open\n", record_fd);
        return 125;
    }
    STARTUPINFOW si;
    PROCESS_INFORMATION pi;
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    if (!CreateProcessW(NULL, cmdline, NULL, NULL, TRUE, DEBUG_ONLY_THIS_PROCESS, NULL, NULL, &si, &pi)) {
        fprintf(stderr, "osbench-entrytrace: cannot start %ls: error %lu\n", cmdline, GetLastError());
        return 125;
    }
    HANDLE process = pi.hProcess;
    DWORD64 base = 0;
    int initial_break = 1;
    DWORD exit_code = 1;
    for (;;) {
        DEBUG_EVENT ev;
        if (!WaitForDebugEvent(&ev, 1000)) {
            /* A debuggee that detached itself (NtRemoveProcessDebug)
             * sends no more events: once it is gone and no event is
             * left, the record ends without "exit". */
            if (WaitForSingleObject(process, 0) == WAIT_OBJECT_0 && !WaitForDebugEvent(&ev, 0)) {
                GetExitCodeProcess(process, &exit_code);
                fprintf(stderr, "osbench-entrytrace: the program left the debugger\n");
                return (int)exit_code;
            }
            if (WaitForSingleObject(process, 0) != WAIT_OBJECT_0) {
                continue;
            }
        }
        DWORD cont = DBG_CONTINUE;
        switch (ev.dwDebugEventCode) {
        case CREATE_PROCESS_DEBUG_EVENT:
            if (ev.u.CreateProcessInfo.hFile) {
                CloseHandle(ev.u.CreateProcessInfo.hFile);
            }
            base = (DWORD64)ev.u.CreateProcessInfo.lpBaseOfImage;
            emit("images", "1");
            arm(process, base);
            break;
        case LOAD_DLL_DEBUG_EVENT:
            if (ev.u.LoadDll.hFile) {
                CloseHandle(ev.u.LoadDll.hFile);
            }
            break;
        case EXCEPTION_DEBUG_EVENT: {
            EXCEPTION_RECORD *rec = &ev.u.Exception.ExceptionRecord;
            cont = DBG_EXCEPTION_NOT_HANDLED;
            if (rec->ExceptionCode == EXCEPTION_BREAKPOINT) {
                if (hit(process, ev.dwThreadId, base, (DWORD64)rec->ExceptionAddress)) {
                    cont = DBG_CONTINUE;
                } else if (initial_break && ev.u.Exception.dwFirstChance) {
                    /* The loader's breakpoint, which every debuggee
                     * raises once before its entry point. */
                    cont = DBG_CONTINUE;
                }
                initial_break = 0;
            }
            break;
        }
        case EXIT_PROCESS_DEBUG_EVENT: {
            char code[16];
            exit_code = ev.u.ExitProcess.dwExitCode;
            snprintf(code, sizeof code, "%lu", exit_code);
            emit("exit", code);
            ContinueDebugEvent(ev.dwProcessId, ev.dwThreadId, DBG_CONTINUE);
            return (int)exit_code;
        }
        default:
            break;
        }
        if (!ContinueDebugEvent(ev.dwProcessId, ev.dwThreadId, cont)) {
            fail("continuing the debuggee");
        }
    }
}
