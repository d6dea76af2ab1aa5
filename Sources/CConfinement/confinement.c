#define _GNU_SOURCE
#include "folio_confinement.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

/* Landlock rights newer than some kernel headers (Debian 12's know ABI 1-2). */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#define FOLIO_LANDLOCK_NET_BIND_TCP (1ULL << 0)
#define FOLIO_LANDLOCK_NET_CONNECT_TCP (1ULL << 1)
#define FOLIO_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define FOLIO_LANDLOCK_SCOPE_SIGNAL (1ULL << 1)
#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif

#define FOLIO_LANDLOCK_RULE_NET_PORT 2

/* struct landlock_net_port_attr (ABI 4), packed as the kernel's. */
struct folio_net_port_attr {
    uint64_t allowed_access;
    uint64_t port;
} __attribute__((packed));

/* struct landlock_ruleset_attr as of ABI 6; the size passed says which fields the kernel reads. */
struct folio_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

/* One refused system call: its number on this architecture, what it is (the category Folio names), its name. */
typedef struct {
    int nr;
    const char *category;
    const char *name;
} refused_call;

enum { refused_capacity = 128 };
static refused_call refused[refused_capacity];
static int refused_count;
static int report_fd = -1;
static int report_stderr;
static int nr_open = -1, nr_openat = -1;

static void set_failure(folio_confinement_state *state, const char *step, int code) {
    if (state->failed_errno != 0) return;
    snprintf(state->failed_step, sizeof state->failed_step, "%s", step);
    state->failed_errno = code ? code : EINVAL;
}

/* The handler of SECCOMP_RET_TRAP: records the call, makes it return -EPERM and lets the plugin go on. Only
 * async-signal-safe work: a scan of a table filled before the filter was loaded, two writes. */
static void on_sigsys(int signal_number, siginfo_t *info, void *context) {
    (void)signal_number;
    int saved = errno;
    ucontext_t *uc = context;
    int nr = info->si_syscall;
    const char *category = "kernel", *name = "unknown";
    for (int i = 0; i < refused_count; i++) {
        if (refused[i].nr == nr) { category = refused[i].category; name = refused[i].name; break; }
    }
#if defined(__x86_64__)
    long long *registers = (long long *)uc->uc_mcontext.gregs;
    long long flags = nr == nr_open ? registers[REG_RSI] : nr == nr_openat ? registers[REG_RDX] : 0;
#elif defined(__aarch64__)
    long long flags = nr == nr_openat ? (long long)uc->uc_mcontext.regs[2] : 0;
#else
    long long flags = 0;
#endif
    if ((nr == nr_open || nr == nr_openat) && ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC | O_APPEND)) != 0)) {
        category = "file-write";
    }
    char line[96];
    size_t length = 0;
    for (const char *p = category; *p && length < 40; p++) line[length++] = *p;
    line[length++] = ' ';
    for (const char *p = name; *p && length < 90; p++) line[length++] = *p;
    line[length++] = '\n';
    if (report_fd >= 0) (void)!send(report_fd, line, length, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (report_stderr) {
        static const char prefix[] = "folio-plugin-host: refused ";
        (void)!write(2, prefix, sizeof prefix - 1);
        (void)!write(2, line, length);
    }
#if defined(__x86_64__)
    uc->uc_mcontext.gregs[REG_RAX] = -EPERM;
#elif defined(__aarch64__)
    uc->uc_mcontext.regs[0] = (unsigned long long)(long long)-EPERM;
#endif
    errno = saved;
}

/* What neither a plugin nor a template's program may ever do: debug other processes, enter or make namespaces and
 * mounts, use the kernel keyring or privileged kernel interfaces. */
static const char *const debugging[] = {"ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd", "process_madvise"};
static const char *const namespaces[] = {"mount", "umount", "umount2", "pivot_root", "chroot", "unshare", "setns", "move_mount",
                                         "open_tree", "fsopen", "fsmount", "fsconfig", "fspick", "mount_setattr"};
static const char *const keyring[] = {"keyctl", "add_key", "request_key"};
static const char *const kernel[] = {"bpf", "perf_event_open", "kexec_load", "kexec_file_load", "init_module", "finit_module",
                                     "delete_module", "open_by_handle_at", "name_to_handle_at", "userfaultfd", "io_uring_setup",
                                     "io_uring_enter", "io_uring_register", "iopl", "ioperm", "acct", "swapon", "swapoff", "reboot"};

/* Every file-system right the kernel's Landlock ABI knows. */
static uint64_t landlock_fs_rights(int abi) {
    uint64_t all = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;  /* ABI 1: EXECUTE .. MAKE_SYM */
    if (abi >= 2) all |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3) all |= LANDLOCK_ACCESS_FS_TRUNCATE;
    if (abi >= 5) all |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
    return all;
}

static int landlock_version(void) {
#ifdef SYS_landlock_create_ruleset
    long version = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return version < 0 ? 0 : (int)version;
#else
    return 0;
#endif
}

static void apply_landlock(const folio_confinement_policy *policy, folio_confinement_state *state) {
#ifdef SYS_landlock_create_ruleset
    int abi = state->landlock_abi;
    if (abi <= 0) return;
    struct folio_ruleset_attr attributes = {0};
    attributes.handled_access_fs = landlock_fs_rights(abi);
    size_t size = sizeof(uint64_t);
    if (abi >= 4) {
        attributes.handled_access_net = FOLIO_LANDLOCK_NET_BIND_TCP | FOLIO_LANDLOCK_NET_CONNECT_TCP;
        size = 2 * sizeof(uint64_t);
    }
    if (abi >= 6) {
        attributes.scoped = FOLIO_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | FOLIO_LANDLOCK_SCOPE_SIGNAL;
        size = 3 * sizeof(uint64_t);
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, size, 0);
    if (ruleset < 0) { set_failure(state, "landlock_create_ruleset", errno); return; }
    for (size_t i = 0; i < policy->readable_count; i++) {
        int folder = open(policy->readable[i], O_PATH | O_CLOEXEC);
        if (folder < 0) { set_failure(state, "open (readable path)", errno); continue; }
        struct stat info;
        int is_folder = fstat(folder, &info) == 0 && S_ISDIR(info.st_mode);
        struct landlock_path_beneath_attr beneath = {
            .allowed_access = LANDLOCK_ACCESS_FS_READ_FILE | (is_folder ? LANDLOCK_ACCESS_FS_READ_DIR : 0),
            .parent_fd = folder,
        };
        if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0) != 0) {
            set_failure(state, "landlock_add_rule", errno);
        }
        close(folder);
    }
    for (size_t i = 0; abi >= 4 && i < policy->connect_port_count; i++) {
        struct folio_net_port_attr port = {.allowed_access = FOLIO_LANDLOCK_NET_CONNECT_TCP, .port = policy->connect_ports[i]};
        if (syscall(SYS_landlock_add_rule, ruleset, FOLIO_LANDLOCK_RULE_NET_PORT, &port, 0) != 0) set_failure(state, "landlock_add_rule (port)", errno);
    }
    if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
        set_failure(state, "landlock_restrict_self", errno);
    } else {
        state->landlock_files = 1;
        state->landlock_tcp = abi >= 4;
        state->landlock_scopes = abi >= 6;
    }
    close(ruleset);
#else
    (void)policy;
    (void)state;
#endif
}

/* Adds a SECCOMP_RET_TRAP rule for `name` (skipped where this architecture has no such call) and remembers it for the
 * handler. */
static int trap(scmp_filter_ctx filter, const char *category, const char *name, unsigned count, const struct scmp_arg_cmp *comparisons) {
    int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) return 0;
    if (nr >= 0) {
        int known = 0;
        for (int i = 0; i < refused_count; i++) known |= refused[i].nr == nr;
        if (!known && refused_count < refused_capacity) refused[refused_count++] = (refused_call){nr, category, name};
    }
    return seccomp_rule_add_array(filter, SCMP_ACT_TRAP, nr, count, comparisons);
}

static int trap_all(scmp_filter_ctx filter, const char *category, const char *const *names, size_t count) {
    for (size_t i = 0; i < count; i++) {
        int result = trap(filter, category, names[i], 0, NULL);
        if (result != 0) return result;
    }
    return 0;
}

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* With TCP ports granted (Landlock holds connect to them): IPv4 and IPv6 stream sockets only; no other family or kind,
 * and no connection through TCP Fast Open's sendto/sendmsg, which would not pass Landlock's connect check. */
static int add_granted_network(scmp_filter_ctx filter) {
    int result = 0;
    struct scmp_arg_cmp below = SCMP_A0(SCMP_CMP_LT, AF_INET), above = SCMP_A0(SCMP_CMP_GT, AF_INET6);
    if ((result = trap(filter, "network", "socket", 1, &below))) return result;
    if ((result = trap(filter, "network", "socket", 1, &above))) return result;
    for (int family = AF_INET + 1; family < AF_INET6; family++) {
        struct scmp_arg_cmp other = SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)family);
        if ((result = trap(filter, "network", "socket", 1, &other))) return result;
    }
    for (int kind = 0; kind < 16; kind++) {
        if (kind == SOCK_STREAM) continue;
        struct scmp_arg_cmp other = SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, (scmp_datum_t)kind);
        if ((result = trap(filter, "network", "socket", 1, &other))) return result;
    }
    struct scmp_arg_cmp fast_open_sendto = SCMP_A3(SCMP_CMP_MASKED_EQ, MSG_FASTOPEN, MSG_FASTOPEN);
    struct scmp_arg_cmp fast_open_sendmsg = SCMP_A2(SCMP_CMP_MASKED_EQ, MSG_FASTOPEN, MSG_FASTOPEN);
    if ((result = trap(filter, "network", "sendto", 1, &fast_open_sendto))) return result;
    if ((result = trap(filter, "network", "sendmsg", 1, &fast_open_sendmsg))) return result;
    return 0;
}

static int add_rules(scmp_filter_ctx filter, const folio_confinement_policy *policy) {
    static const char *const network[] = {"socket", "socketpair", "connect", "socketcall"};
    static const char *const network_granted[] = {"socketpair", "socketcall"};
    static const char *const listening[] = {"bind", "listen", "accept", "accept4"};
    static const char *const programs[] = {"execve", "execveat"};
    static const char *const processes[] = {"fork", "vfork"};
    static const char *const file_changes[] = {"unlink", "unlinkat", "rename", "renameat", "renameat2", "mkdir", "mkdirat", "rmdir",
                                               "link", "linkat", "symlink", "symlinkat", "mknod", "mknodat", "chmod", "fchmodat",
                                               "fchmodat2", "chown", "lchown", "fchownat", "truncate", "utime", "utimes", "futimesat",
                                               "setxattr", "lsetxattr", "removexattr", "lremovexattr"};
    static const char *const signals[] = {"tkill", "pidfd_open", "pidfd_send_signal"};
    int result = 0;
    if (policy->connect_port_count == 0) {
        if ((result = trap_all(filter, "network", network, COUNT(network)))) return result;
    } else if ((result = add_granted_network(filter))) {
        return result;
    }
    if ((result = trap_all(filter, "network", network_granted, COUNT(network_granted)))) return result;
    if ((result = trap_all(filter, "listen", listening, COUNT(listening)))) return result;
    if ((result = trap_all(filter, "program", programs, COUNT(programs)))) return result;
    if ((result = trap_all(filter, "process", processes, COUNT(processes)))) return result;
    if ((result = trap_all(filter, "debug", debugging, COUNT(debugging)))) return result;
    if ((result = trap_all(filter, "namespace", namespaces, COUNT(namespaces)))) return result;
    if ((result = trap_all(filter, "keyring", keyring, COUNT(keyring)))) return result;
    if ((result = trap_all(filter, "kernel", kernel, COUNT(kernel)))) return result;
    if ((result = trap_all(filter, "file-change", file_changes, COUNT(file_changes)))) return result;
    if ((result = trap_all(filter, "signal", signals, COUNT(signals)))) return result;

    /* A new process (clone without CLONE_THREAD); threads stay. clone3's flags are behind a pointer: ENOSYS, so that
       glibc's pthread_create falls back to clone. (s390's clone takes the flags second; it is not supported here.) */
    struct scmp_arg_cmp not_thread = SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0);
    if ((result = trap(filter, "process", "clone", 1, &not_thread))) return result;
    if ((result = seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0))) return result;

    /* Signals only to this process (raise and abort use tgkill with its own pid). */
    pid_t self = getpid();
    struct scmp_arg_cmp other_process = SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)self);
    if ((result = trap(filter, "signal", "kill", 1, &other_process))) return result;
    if ((result = trap(filter, "signal", "tgkill", 1, &other_process))) return result;
    if ((result = trap(filter, "signal", "rt_sigqueueinfo", 1, &other_process))) return result;
    if ((result = trap(filter, "signal", "rt_tgsigqueueinfo", 1, &other_process))) return result;
    /* The refusals' handler stays: SIGSYS's action cannot be changed. */
    struct scmp_arg_cmp sigsys = SCMP_A0(SCMP_CMP_EQ, SIGSYS);
    if ((result = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(rt_sigaction), 1, sigsys))) return result;

    /* Opening files: every open when nothing is readable; with readable folders (Landlock decides which), only the
       opens that could write. */
    nr_open = seccomp_syscall_resolve_name("open");
    nr_openat = seccomp_syscall_resolve_name("openat");
    static const char *const opens[] = {"open", "openat"};
    for (size_t i = 0; i < COUNT(opens); i++) {
        unsigned flags_argument = strcmp(opens[i], "open") == 0 ? 1 : 2;
        if (policy->readable_count == 0) {
            if ((result = trap(filter, "file-read", opens[i], 0, NULL))) return result;
            continue;
        }
        struct scmp_arg_cmp writes[] = {
            {flags_argument, SCMP_CMP_MASKED_EQ, O_ACCMODE, O_WRONLY}, {flags_argument, SCMP_CMP_MASKED_EQ, O_ACCMODE, O_RDWR},
            {flags_argument, SCMP_CMP_MASKED_EQ, O_CREAT, O_CREAT},   {flags_argument, SCMP_CMP_MASKED_EQ, O_TRUNC, O_TRUNC},
            {flags_argument, SCMP_CMP_MASKED_EQ, O_APPEND, O_APPEND},
        };
        for (size_t j = 0; j < COUNT(writes); j++) {
            if ((result = trap(filter, "file-write", opens[i], 1, &writes[j]))) return result;
        }
    }
    static const char *const always_write[] = {"creat"};
    if ((result = trap_all(filter, "file-write", always_write, COUNT(always_write)))) return result;
    /* openat2's flags are behind a pointer: refused like a kernel without it, so that callers use openat. */
    if ((result = seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0))) return result;
    return 0;
}

static void apply_seccomp(const folio_confinement_policy *policy, folio_confinement_state *state) {
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (!filter) { set_failure(state, "seccomp_init", ENOMEM); return; }
    int result = seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1);
    if (result == 0) result = add_rules(filter, policy);
    if (result != 0) {
        set_failure(state, "seccomp_rule_add", -result);
    } else if ((result = seccomp_load(filter)) != 0) {
        set_failure(state, "seccomp_load", -result);
    } else {
        state->seccomp = 1;
    }
    seccomp_release(filter);
}

int folio_confinement_apply(const folio_confinement_policy *policy, folio_confinement_state *state) {
    memset(state, 0, sizeof *state);
    report_fd = policy->report_fd;
    report_stderr = policy->report_stderr;

    if (getsid(0) != getpid() && setsid() < 0) set_failure(state, "setsid", errno);
    state->own_session = getsid(0) == getpid();

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigsys;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGSYS, &action, NULL) != 0) set_failure(state, "sigaction(SIGSYS)", errno);
    sigset_t sigsys;
    sigemptyset(&sigsys);
    sigaddset(&sigsys, SIGSYS);
    pthread_sigmask(SIG_UNBLOCK, &sigsys, NULL);

    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) set_failure(state, "prctl(PR_SET_NO_NEW_PRIVS)", errno);
    state->no_new_privs = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1;

    state->landlock_abi = landlock_version();
    apply_landlock(policy, state);
    apply_seccomp(policy, state);
    return state->failed_errno == 0 ? 0 : -1;
}

void folio_confinement_probe(folio_confinement_state *state) {
    memset(state, 0, sizeof *state);
    state->landlock_abi = landlock_version();
    state->landlock_files = state->landlock_abi >= 1;
    state->landlock_tcp = state->landlock_abi >= 4;
    state->landlock_scopes = state->landlock_abi >= 6;
    state->seccomp = seccomp_api_get() >= 1 && prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
    state->no_new_privs = 1;
    state->own_session = 1;
}

int folio_confinement_thread_count(void) {
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char text[4096];
    ssize_t size = read(fd, text, sizeof text - 1);
    close(fd);
    if (size <= 0) return -1;
    text[size] = 0;
    const char *line = strstr(text, "\nThreads:");
    if (!line) return -1;
    int count = -1;
    if (sscanf(line + 9, "%d", &count) != 1) return -1;
    return count;
}

/* --- Programs: a template's hooks and tasks ------------------------------------------------------------------- */

static int add_path_rule(int ruleset, const char *path, uint64_t file_rights, uint64_t folder_rights, folio_confinement_state *state) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return 0;  /* a path that does not exist grants nothing */
    struct stat info;
    int is_folder = fstat(fd, &info) == 0 && S_ISDIR(info.st_mode);
    struct landlock_path_beneath_attr beneath = {.allowed_access = is_folder ? folder_rights : file_rights, .parent_fd = fd};
    int result = (int)syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0);
    if (result != 0) set_failure(state, "landlock_add_rule", errno);
    close(fd);
    return result;
}

static void apply_program_landlock(const folio_program_policy *policy, folio_confinement_state *state) {
#ifdef SYS_landlock_create_ruleset
    int abi = state->landlock_abi;
    if (abi <= 0) return;
    struct folio_ruleset_attr attributes = {0};
    uint64_t all = landlock_fs_rights(abi);
    attributes.handled_access_fs = all;
    size_t size = sizeof(uint64_t);
    if (abi >= 4 && !policy->network) {
        attributes.handled_access_net = FOLIO_LANDLOCK_NET_BIND_TCP | FOLIO_LANDLOCK_NET_CONNECT_TCP;
        size = 2 * sizeof(uint64_t);
    }
    if (abi >= 6) {
        attributes.scoped = FOLIO_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | FOLIO_LANDLOCK_SCOPE_SIGNAL;
        size = 3 * sizeof(uint64_t);
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, size, 0);
    if (ruleset < 0) { set_failure(state, "landlock_create_ruleset", errno); return; }
    uint64_t read_file = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_EXECUTE;
    uint64_t read_folder = read_file | LANDLOCK_ACCESS_FS_READ_DIR;
    uint64_t write_file = all & ((LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_EXECUTE |
                                  LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV));
    for (size_t i = 0; i < policy->readable_count; i++) add_path_rule(ruleset, policy->readable[i], read_file, read_folder, state);
    for (size_t i = 0; i < policy->writable_count; i++) add_path_rule(ruleset, policy->writable[i], write_file, all, state);
    if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
        set_failure(state, "landlock_restrict_self", errno);
    } else {
        state->landlock_files = 1;
        state->landlock_tcp = abi >= 4 && !policy->network;
        state->landlock_scopes = abi >= 6;
    }
    close(ruleset);
#else
    (void)policy;
    (void)state;
#endif
}

static int refuse_all(scmp_filter_ctx filter, const char *const *names, size_t count) {
    for (size_t i = 0; i < count; i++) {
        int nr = seccomp_syscall_resolve_name(names[i]);
        if (nr == __NR_SCMP_ERROR) continue;
        int result = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), nr, 0);
        if (result != 0) return result;
    }
    return 0;
}

static void apply_program_seccomp(const folio_program_policy *policy, folio_confinement_state *state) {
    static const char *const network[] = {"socket", "connect", "bind", "listen", "accept", "accept4", "socketcall"};
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (!filter) { set_failure(state, "seccomp_init", ENOMEM); return; }
    int result = 0;
    if (!result) result = refuse_all(filter, debugging, COUNT(debugging));
    if (!result) result = refuse_all(filter, namespaces, COUNT(namespaces));
    if (!result) result = refuse_all(filter, keyring, COUNT(keyring));
    if (!result) result = refuse_all(filter, kernel, COUNT(kernel));
    if (!result && !policy->network) result = refuse_all(filter, network, COUNT(network));
    /* clone3's flags are behind a pointer (a new namespace could hide there): ENOSYS, so that callers use clone, whose
       namespace flags are refused here. */
    if (!result) result = seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    if (!result) {
        scmp_datum_t flags[] = {CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWNET, CLONE_NEWPID, CLONE_NEWIPC, CLONE_NEWUTS, CLONE_NEWCGROUP};
        for (size_t i = 0; !result && i < COUNT(flags); i++) {
            struct scmp_arg_cmp with = SCMP_A0(SCMP_CMP_MASKED_EQ, flags[i], flags[i]);
            result = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1, with);
        }
    }
    if (result != 0) {
        set_failure(state, "seccomp_rule_add", -result);
    } else if ((result = seccomp_load(filter)) != 0) {
        set_failure(state, "seccomp_load", -result);
    } else {
        state->seccomp = 1;
    }
    seccomp_release(filter);
}

int folio_confinement_apply_program(const folio_program_policy *policy, folio_confinement_state *state) {
    memset(state, 0, sizeof *state);
    if (getsid(0) != getpid() && setsid() < 0) set_failure(state, "setsid", errno);
    state->own_session = getsid(0) == getpid();
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) set_failure(state, "prctl(PR_SET_NO_NEW_PRIVS)", errno);
    state->no_new_privs = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1;
    state->landlock_abi = landlock_version();
    apply_program_landlock(policy, state);
    apply_program_seccomp(policy, state);
    return state->failed_errno == 0 ? 0 : -1;
}

int folio_end_with_parent(int signal) { return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0, 0, 0); }
