#ifndef FOLIO_CONFINEMENT_H
#define FOLIO_CONFINEMENT_H

#include <stddef.h>
#include <stdint.h>

/* The kernel's confinement of a process (FolioConfinement/Confinement.swift): Landlock through raw system calls,
 * seccomp-bpf through libseccomp, PR_SET_NO_NEW_PRIVS and a session of its own. Applied once, for good, to the whole
 * calling process; nothing here can be undone. */

/* What was asked for. */
typedef struct {
    /* Files and folders the process may still read (Landlock read rights on each file, beneath each folder; with none,
       no file can be opened). */
    const char *const *readable;
    size_t readable_count;
    /* TCP ports the process may connect to (Landlock ABI >= 4 holds it to them; seccomp then lets it create IPv4 and
       IPv6 stream sockets and connect). With none, no socket can be created or connected. */
    const uint16_t *connect_ports;
    size_t connect_port_count;
    /* Where the SIGSYS handler writes one line per refused system call ("CATEGORY SYSCALL\n"); -1 for nowhere. */
    int report_fd;
    /* Whether to write the same line to standard error (the plugin host's log). */
    int report_stderr;
} folio_confinement_policy;

/* What is in force after folio_confinement_apply (or, from folio_confinement_probe, what the kernel offers). */
typedef struct {
    /* The kernel's Landlock ABI version (0: none, or disabled). */
    int landlock_abi;
    /* Landlock enforced: file-system rights (1 when restricted), TCP bind/connect (ABI >= 4), abstract UNIX sockets
       and signals scoped (ABI >= 6). */
    int landlock_files;
    int landlock_tcp;
    int landlock_scopes;
    /* The seccomp filter is loaded (refusals through SIGSYS, reported). */
    int seccomp;
    int no_new_privs;
    /* The process leads its own session (no controlling terminal). */
    int own_session;
    /* The first step that failed, and its errno (0 when none failed); a failed step leaves the others in force. */
    char failed_step[48];
    int failed_errno;
} folio_confinement_state;

/* Confines the calling process: session, no-new-privs, Landlock (where the kernel has it), seccomp. Returns 0 when
 * everything the kernel offers is in force, -1 when a step failed (named in `state`). Must be called while the process
 * has one thread: Landlock binds only the calling thread and the threads it starts later. */
int folio_confinement_apply(const folio_confinement_policy *policy, folio_confinement_state *state);

/* What a confined program (a template's hook or task) may do: read and run what is beneath `readable`, change what is
 * beneath `writable`, and reach the network only with `network`. It may start processes and run programs (its
 * children inherit the confinement: Landlock and seccomp outlive execve); refused calls fail with EPERM or EACCES. */
typedef struct {
    const char *const *readable;
    size_t readable_count;
    const char *const *writable;
    size_t writable_count;
    int network;
} folio_program_policy;

/* Confines the calling process for running a program (see folio_program_policy): session, no-new-privs, Landlock,
 * and a seccomp filter refusing debugging, namespaces, the keyring, privileged kernel interfaces and (without
 * `network`) sockets. Returns 0 when everything the kernel offers is in force, -1 when a step failed. */
int folio_confinement_apply_program(const folio_program_policy *policy, folio_confinement_state *state);

/* Asks the kernel to send `signal` to the calling process when the thread that started it ends (its parent dies).
 * Returns 0, or -1 with errno. */
int folio_end_with_parent(int signal);

/* What the kernel offers, without confining anything. */
void folio_confinement_probe(folio_confinement_state *state);

/* How many threads this process has (from /proc/self/status; -1 when unknown). */
int folio_confinement_thread_count(void);

#endif
