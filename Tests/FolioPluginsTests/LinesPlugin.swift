import FolioCLITestSupport
import Foundation

/// "lines": a small C editor plugin whose document is lines of UTF-8 text, with commands that declare typed usages
/// (`add TEXT`, `mark rect|ellipse X:int W:int+ [COLOR]`, `sort`, `slow N:int+`). Clean, it passes
/// `folio plugins validate`; each defect is one of the real-use failures the validator once missed: every hostile
/// argument set is refused or harmless, and only valid calls, ranges and non-ASCII documents show them.
enum LinesPlugin {
    enum Defect: String, CaseIterable {
        /// render cuts each line at `width` bytes, in the middle of a UTF-8 sequence.
        case cutUTF8 = "CUT_UTF8"
        /// `sort` loops forever on a reversed range (anchor after the cursor).
        case loopOnReversedRange = "LOOP_ON_REVERSED_RANGE"
        /// `slow N` takes 8 s for any valid N.
        case slow = "SLOW"
        /// `add` appends to its input document before copying it.
        case changesInput = "CHANGES_INPUT"
        /// `mark ellipse X W` crashes when W is 7 or more.
        case crashOnWideEllipse = "CRASH_ON_WIDE_ELLIPSE"
    }

    static func source(_ defects: [Defect] = []) -> String {
        defects.map { "#define \($0.rawValue) 1\n" }.joined() + """
        #include "folio_plugin.h"
        #include <errno.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>
        struct folio_document { char *text; size_t size; };  /* lines, each ending in \\n */
        static void l_free(folio_buffer *b) { free(b->data); }
        static folio_status l_set(folio_buffer *b, const char *bytes, size_t n) {
            b->data = malloc(n + 1); if (!b->data) return FOLIO_STATUS_OUT_OF_MEMORY;
            memcpy(b->data, bytes, n); b->data[n] = 0; b->size = n; b->release = l_free; return FOLIO_STATUS_OK;
        }
        static folio_status l_fail(folio_buffer *err, folio_status status, const char *message) {
            l_set(err, message, strlen(message)); return status;
        }
        /* Valid UTF-8 without control characters (C0 but newline, DEL, C1). */
        static int l_valid(const uint8_t *s, size_t n) {
            for (size_t i = 0; i < n;) {
                uint8_t c = s[i];
                size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
                if (!len || i + len > n || c == 0xC0 || c == 0xC1 || c > 0xF4) return 0;
                if (len == 1 && ((c < 0x20 && c != '\\n') || c == 0x7F)) return 0;
                for (size_t k = 1; k < len; k++) if ((s[i + k] & 0xC0) != 0x80) return 0;
                uint8_t d = len > 1 ? s[i + 1] : 0;
                if ((c == 0xE0 && d < 0xA0) || (c == 0xED && d > 0x9F) || (c == 0xF0 && d < 0x90) || (c == 0xF4 && d > 0x8F) || (c == 0xC2 && d < 0xA0)) return 0;
                i += len;
            }
            return 1;
        }
        static folio_document *l_make(const char *a, size_t an, const char *b, size_t bn) {
            folio_document *d = calloc(1, sizeof *d); if (!d) return NULL;
            d->text = malloc(an + bn + 2); if (!d->text) { free(d); return NULL; }
            memcpy(d->text, a, an); memcpy(d->text + an, b, bn); d->size = an + bn;
            if (d->size > 0 && d->text[d->size - 1] != '\\n') d->text[d->size++] = '\\n';
            return d;
        }
        static folio_status l_open(const folio_editor *e, const uint8_t *bytes, size_t size, folio_document **out, folio_buffer *err) {
            if (!l_valid(bytes, size)) return l_fail(err, FOLIO_STATUS_INVALID_DOCUMENT, "not lines of UTF-8 text");
            *out = l_make((const char *)bytes, size, "", 0);
            return *out ? FOLIO_STATUS_OK : FOLIO_STATUS_OUT_OF_MEMORY;
        }
        /* A JSON array of strings without escapes, parsed in place into `copy`; the count, -1 when malformed. */
        static int l_arguments(char *copy, char **out, int most) {
            int n = 0; char *p = copy;
            while (*p == ' ') p++;
            if (*p++ != '[') return -1;
            while (*p == ' ') p++;
            if (*p == ']') return 0;
            for (;;) {
                if (*p++ != '"' || n == most) return -1;
                out[n++] = p;
                while (*p && *p != '"' && *p != '\\\\') p++;
                if (*p != '"') return -1;
                *p++ = 0;
                while (*p == ' ') p++;
                if (*p == ']') return n;
                if (*p++ != ',') return -1;
                while (*p == ' ') p++;
            }
        }
        static int l_integer(const char *text, long least, long *out) {
            char *end; errno = 0; *out = strtol(text, &end, 10);
            return !errno && *text && !*end && *out >= least;
        }
        static folio_status l_command(const folio_document *doc, const char *cmd, char **args, int count, const folio_selection *sel,
                                      folio_document **out, folio_buffer *err) {
            char line[256];
            if (strcmp(cmd, "add") == 0) {
                if (count != 1 || strlen(args[0]) > 200) return l_fail(err, FOLIO_STATUS_INVALID_ARGUMENT, "add needs TEXT (at most 200 bytes)");
                if (!l_valid((const uint8_t *)args[0], strlen(args[0])) || strchr(args[0], '\\n')) return l_fail(err, FOLIO_STATUS_INVALID_ARGUMENT, "TEXT must be one line");
        #ifdef CHANGES_INPUT
                folio_document *in = (folio_document *)doc;
                char *grown = realloc(in->text, in->size + strlen(args[0]) + 2); if (!grown) return FOLIO_STATUS_OUT_OF_MEMORY;
                in->text = grown; memcpy(in->text + in->size, args[0], strlen(args[0])); in->size += strlen(args[0]); in->text[in->size++] = '\\n';
                *out = l_make(in->text, in->size, "", 0);
        #else
                *out = l_make(doc->text, doc->size, args[0], strlen(args[0]));
        #endif
            } else if (strcmp(cmd, "mark") == 0) {
                long x, w;
                if (count < 3 || count > 4 || (strcmp(args[0], "rect") && strcmp(args[0], "ellipse")) || !l_integer(args[1], -1000000, &x)
                    || !l_integer(args[2], 1, &w) || (count == 4 && (strlen(args[3]) > 40 || !l_valid((const uint8_t *)args[3], strlen(args[3])))))
                    return l_fail(err, FOLIO_STATUS_INVALID_ARGUMENT, "usage: mark rect|ellipse X:int W:int+ [COLOR]");
        #ifdef CRASH_ON_WIDE_ELLIPSE
                if (strcmp(args[0], "ellipse") == 0 && w >= 7) { *(volatile int *)0 = 1; }
        #endif
                int n = snprintf(line, sizeof line, "%s at %ld, %ld wide %s", args[0], x, w, count == 4 ? args[3] : "");
                *out = l_make(doc->text, doc->size, line, (size_t)n);
            } else if (strcmp(cmd, "sort") == 0) {
        #ifdef LOOP_ON_REVERSED_RANGE
                if (sel && sel->anchor > sel->cursor) { for (volatile long i = 0;; i++) {} }
        #endif
                *out = l_make(doc->text, doc->size, "", 0);
            } else if (strcmp(cmd, "slow") == 0) {
                long n;
                if (count != 1 || !l_integer(args[0], 1, &n)) return l_fail(err, FOLIO_STATUS_INVALID_ARGUMENT, "slow needs N (1 or more)");
        #ifdef SLOW
                sleep(8);
        #endif
                *out = l_make(doc->text, doc->size, "", 0);
            } else {
                return l_fail(err, FOLIO_STATUS_UNKNOWN_COMMAND, "no such command");
            }
            return *out ? FOLIO_STATUS_OK : FOLIO_STATUS_OUT_OF_MEMORY;
        }
        static folio_status l_apply(const folio_editor *e, const folio_document *doc, const char *cmd, const char *json,
                                    const folio_selection *sel, folio_document **out, folio_buffer *desc, folio_buffer *err) {
            char *copy = strdup(json), *args[8];
            if (!copy) return FOLIO_STATUS_OUT_OF_MEMORY;
            int count = l_arguments(copy, args, 8);
            folio_status status = count < 0 ? l_fail(err, FOLIO_STATUS_INVALID_ARGUMENT, "arguments: a JSON array of strings without escapes")
                                            : l_command(doc, cmd, args, count, sel, out, err);
            free(copy);
            return status == FOLIO_STATUS_OK ? l_set(desc, cmd, strlen(cmd)) : status;
        }
        static folio_status l_serialize(const folio_editor *e, const folio_document *doc, folio_buffer *out, folio_buffer *err) {
            return l_set(out, doc->text, doc->size);
        }
        /* At most `h` lines, each cut to `w` bytes (which is never more than `w` cells) at a character boundary. */
        static folio_status l_render(const folio_editor *e, const folio_document *doc, uint32_t w, uint32_t h,
                                     const folio_selection *sel, folio_buffer *out, folio_buffer *err) {
            char *text = malloc(doc->size + 1); if (!text) return FOLIO_STATUS_OUT_OF_MEMORY;
            size_t used = 0, start = 0; uint32_t lines = 0;
            while (start < doc->size && lines < h) {
                size_t end = start; while (doc->text[end] != '\\n') end++;
                size_t n = end - start < w ? end - start : w;
        #ifndef CUT_UTF8
                while (n < end - start && n > 0 && ((unsigned char)doc->text[start + n] & 0xC0) == 0x80) n--;
        #endif
                if (lines > 0) text[used++] = '\\n';
                memcpy(text + used, doc->text + start, n); used += n;
                start = end + 1; lines++;
            }
            folio_status status = l_set(out, text, used);
            free(text);
            return status;
        }
        static void l_release(const folio_editor *e, folio_document *doc) { free(doc->text); free(doc); }
        static const folio_command_info add = { sizeof(folio_command_info), 0, "add", "Add line", "a", "add TEXT" };
        static const folio_command_info mark = { sizeof(folio_command_info), 0, "mark", "Mark", "m", "mark rect|ellipse X:int W:int+ [COLOR]" };
        static const folio_command_info sort = { sizeof(folio_command_info), FOLIO_COMMAND_NEEDS_SELECTION, "sort", "Sort", "s", "sort" };
        static const folio_command_info slow = { sizeof(folio_command_info), 0, "slow", "Slow", "", "slow N:int+" };
        static const folio_command_info *const commands[] = { &add, &mark, &sort, &slow };
        static const char *const types[] = { "org.test.lines" };
        static const folio_editor editor = {
            .struct_size = sizeof(folio_editor), .priority = FOLIO_PRIORITY_DEFAULT, .id = "lines", .name = "Lines",
            .content_types = types, .content_type_count = 1, .commands = commands, .command_count = 4,
            .open = l_open, .apply = l_apply, .serialize = l_serialize, .render = l_render, .release = l_release,
        };
        \(PluginCSource.descriptor(id: "org.test.lines", name: "Lines"))
        """
    }
}
