#ifndef FOLIO_BACKTRACE_H
#define FOLIO_BACKTRACE_H

/* The crash handler's backtrace (FolioTerminal/FatalSignals.swift): the return addresses of the calling thread's
 * frames, by the unwinder linked into the program (libgcc's _Unwind_Backtrace), the caller's frame first. glibc's
 * `backtrace` does the same through libgcc_s.so.1, which it loads on first use: loading it at every start to have it
 * ready for a crash cost more than the rest of the handler's set-up. Returns how many addresses were stored. */
int folio_backtrace(void **frames, int capacity);

#endif
