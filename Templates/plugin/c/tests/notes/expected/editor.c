/* Notes: a Folio editor for com.example.notes documents, a list of lines (one item per line).
 * Commands: `add TEXT` appends a line, `remove N` removes line N (the one under the cursor in the editor).
 * Items (folio.items/1): each line is an item, so Folio can list the history of one line and bring one back.
 * Folio's plugin guide, docs/PLUGINS.md, explains every table and rule used here. */
#include <folio_plugin.h>
#include <folio_text.h> /* UTF-8, display widths, the argument array and a line builder that cuts by cells */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The document ---------------------------------------------------------------------------------------- */

struct folio_document {
    char **lines;
    size_t count;
};

static void document_free(folio_document *document) {
    size_t i;
    if (document == NULL) return;
    for (i = 0; i < document->count; i++) free(document->lines[i]);
    free(document->lines);
    free(document);
}

static char *copy_text(const char *text, size_t size) {
    char *copy = malloc(size + 1);
    if (copy == NULL) return NULL;
    memcpy(copy, text, size);
    copy[size] = 0;
    return copy;
}

/* A new document holding copies of `lines` with `extra` appended (when not NULL) and line `skip` left out
 * (when below `count`). NULL when out of memory. */
static folio_document *document_make(char *const *lines, size_t count, const char *extra, size_t skip) {
    size_t i;
    folio_document *document = calloc(1, sizeof *document);
    if (document == NULL) return NULL;
    document->lines = calloc(count + 1, sizeof *document->lines);
    if (document->lines == NULL) { free(document); return NULL; }
    for (i = 0; i < count; i++) {
        if (i == skip) continue;
        if ((document->lines[document->count] = copy_text(lines[i], strlen(lines[i]))) == NULL) goto fail;
        document->count++;
    }
    if (extra != NULL) {
        if ((document->lines[document->count] = copy_text(extra, strlen(extra))) == NULL) goto fail;
        document->count++;
    }
    return document;
fail:
    document_free(document);
    return NULL;
}

/* ---- The editor's operations ------------------------------------------------------------------------------ */

static folio_status op_open(const folio_editor *editor, const uint8_t *bytes, size_t size, folio_document **out,
                            folio_buffer *error) {
    folio_document *document = calloc(1, sizeof *document);
    size_t start = 0, i, lines = 0;
    (void)editor;
    if (document == NULL) return folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    if (!folio_utf8_valid((const char *)bytes, size)) { free(document); return folio_fail(error, FOLIO_STATUS_INVALID_DOCUMENT, "the file is not UTF-8 text"); }
    for (i = 0; i < size; i++) {
        if (bytes[i] == 0) { document_free(document); return folio_fail(error, FOLIO_STATUS_INVALID_DOCUMENT, "the file holds a NUL byte"); }
        if (bytes[i] == '\n') lines++;
    }
    document->lines = calloc(lines + 2, sizeof *document->lines);
    if (document->lines == NULL) { free(document); return folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory"); }
    for (i = 0; i <= size; i++) {
        if (i < size && bytes[i] != '\n') continue;
        if (i > start) {
            if ((document->lines[document->count] = copy_text((const char *)bytes + start, i - start)) == NULL) {
                document_free(document);
                return folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
            }
            document->count++;
        }
        start = i + 1;
    }
    *out = document;
    return FOLIO_STATUS_OK;
}

/* "VERB 'LINE'", the line cut to 40 cells (never inside a character) with "..." when cut. */
static folio_status describe(folio_buffer *out, const char *verb, const char *line) {
    char text[256];
    int shown = (int)folio_text_fit(line, strlen(line), 40, NULL);
    snprintf(text, sizeof text, "%s '%.*s%s'", verb, shown, line, line[shown] != 0 ? "..." : "");
    return folio_buffer_set(out, text, strlen(text));
}

static folio_status op_apply(const folio_editor *editor, const folio_document *document, const char *command,
                             const char *arguments_json, const folio_selection *selection, folio_document **out,
                             folio_buffer *out_description, folio_buffer *error) {
    folio_args args;
    folio_document *changed = NULL;
    folio_status status = FOLIO_STATUS_OK;
    (void)editor;
    (void)selection; /* `remove N` gets N as its argument: Folio fills it from the cursor */
    if (!folio_args_parse(arguments_json, &args))
        return folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, "the arguments must be a list of texts");
    if (strcmp(command, "add") == 0) {
        if (args.count != 1) status = folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, "expected 1 argument (usage: add TEXT)");
        else if (args.values[0][0] == 0 || strchr(args.values[0], '\n') != NULL)
            status = folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, "TEXT must be one non-empty line (usage: add TEXT)");
        else if ((changed = document_make(document->lines, document->count, args.values[0], (size_t)-1)) == NULL)
            status = folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
        else status = describe(out_description, "added", args.values[0]);
    } else if (strcmp(command, "remove") == 0) {
        char *end = NULL;
        long n = args.count == 1 ? strtol(args.values[0], &end, 10) : 0;
        if (args.count != 1) status = folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, "expected 1 argument (usage: remove N)");
        else if (end == args.values[0] || *end != 0) status = folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, "N must be a whole number (usage: remove N)");
        else if (n < 1 || (unsigned long)n > document->count) status = folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, "N is not the number of a line");
        else if ((changed = document_make(document->lines, document->count, NULL, (size_t)(n - 1))) == NULL)
            status = folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
        else status = describe(out_description, "removed", document->lines[n - 1]);
    } else {
        status = folio_fail(error, FOLIO_STATUS_UNKNOWN_COMMAND, "unknown command");
    }
    folio_args_free(&args);
    if (status != FOLIO_STATUS_OK) {
        document_free(changed);
        return status;
    }
    *out = changed;
    return FOLIO_STATUS_OK;
}

static folio_status op_serialize(const folio_editor *editor, const folio_document *document, folio_buffer *out,
                                 folio_buffer *error) {
    size_t i, size = 0, at = 0;
    char *text;
    folio_status status;
    (void)editor;
    for (i = 0; i < document->count; i++) size += strlen(document->lines[i]) + 1;
    if ((text = malloc(size + 1)) == NULL) return folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    for (i = 0; i < document->count; i++) {
        size_t length = strlen(document->lines[i]);
        memcpy(text + at, document->lines[i], length);
        at += length;
        text[at++] = '\n';
    }
    status = folio_buffer_set(out, text, size);
    free(text);
    return status == FOLIO_STATUS_OK ? status : folio_fail(error, status, "out of memory");
}

/* A header line, then one line per item: "> 2 text" for the cursor's item, "  2 text" for the others (Folio finds
 * items by their numbers). Each line is cut to `width` cells by folio_lines (wide characters take two). */
static folio_status op_render(const folio_editor *editor, const folio_document *document, uint32_t width,
                              uint32_t height, const folio_selection *selection, folio_buffer *out,
                              folio_buffer *error) {
    size_t first = 0, row;
    int64_t cursor = selection != NULL ? selection->cursor : 0;
    folio_lines lines;
    (void)editor;
    if (selection != NULL && selection->scroll > 0) first = (size_t)selection->scroll;
    if (cursor > 0 && height > 1 && (size_t)cursor > first + height - 1) first = (size_t)cursor - (height - 1);
    if (first > document->count) first = document->count;
    folio_lines_init(&lines, width > 4096 ? 4096 : (int)width);
    for (row = 0; row < height; row++) {
        size_t item = first + row;
        if (row > 0 && item - 1 >= document->count) break;
        if (row > 0) folio_lines_break(&lines);
        if (row == 0) folio_lines_addf(&lines, "Notes (%lu lines)", (unsigned long)document->count);
        else folio_lines_addf(&lines, "%s%lu %s", (int64_t)item == cursor ? "> " : "  ", (unsigned long)item, document->lines[item - 1]);
    }
    return folio_lines_finish(&lines, out, error);
}

static void op_release(const folio_editor *editor, folio_document *document) {
    (void)editor;
    document_free(document);
}

/* ---- Items (folio.items/1): the history of one line, and bringing one back --------------------------------- */

/* A line's fingerprint: 64-bit FNV-1a of its text. */
static unsigned long long fingerprint(const char *text) {
    unsigned long long hash = 0xcbf29ce484222325ULL;
    for (; *text; text++) hash = (hash ^ (unsigned char)*text) * 0x100000001b3ULL;
    return hash;
}

/* For each line of `now`, the index of the same line in `before` (-1 when new): equal text, matched in order, each
 * line looking at most MATCH_WINDOW lines past the last match (so a huge document costs little). */
#define MATCH_WINDOW 1000
static void match_lines(const folio_document *before, const folio_document *now, long *previous) {
    size_t i, next = 0;
    for (i = 0; i < now->count; i++) {
        size_t j, end = next + MATCH_WINDOW < before->count ? next + MATCH_WINDOW : before->count;
        previous[i] = -1;
        for (j = next; j < end; j++) {
            if (strcmp(before->lines[j], now->lines[i]) == 0) { previous[i] = (long)j; next = j + 1; break; }
        }
    }
}

/* One line per item: "N<TAB>PREVIOUS<TAB>FINGERPRINT<TAB>SUMMARY" (the summary is the line, cut to 60 bytes of whole characters). */
static folio_status items_list(const folio_editor *editor, const uint8_t *previous, size_t previous_size, const uint8_t *bytes,
                               size_t size, folio_buffer *out, folio_buffer *error) {
    folio_document *now = NULL, *before = NULL;
    long *matches = NULL;
    char *text = NULL, line[160];
    size_t i, used = 0, capacity;
    folio_status status = op_open(editor, bytes, size, &now, error);
    if (status != FOLIO_STATUS_OK) return status;
    if (previous != NULL && (status = op_open(editor, previous, previous_size, &before, error)) != FOLIO_STATUS_OK) {
        document_free(now);
        return status;
    }
    capacity = now->count * sizeof line + 1;
    matches = calloc(now->count + 1, sizeof *matches);
    text = malloc(capacity);
    if (matches == NULL || text == NULL) status = folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    if (status == FOLIO_STATUS_OK) {
        if (before != NULL) match_lines(before, now, matches);
        for (i = 0; i < now->count; i++) {
            char previous_key[24] = "", summary[64];
            size_t shown = 0, step, rest = strlen(now->lines[i]);
            int length, k, cells;
            while (shown < rest && shown + (step = folio_text_cluster(now->lines[i] + shown, rest - shown, &cells)) <= 60) shown += step;
            for (k = 0; k < (int)shown; k++) summary[k] = now->lines[i][k] == '\t' ? ' ' : now->lines[i][k]; /* a tab would end the field */
            summary[shown] = 0;
            if (before != NULL && matches[i] >= 0) snprintf(previous_key, sizeof previous_key, "%ld", matches[i] + 1);
            length = snprintf(line, sizeof line, "%lu\t%s\t%016llx\t%s\n", (unsigned long)(i + 1), previous_key, fingerprint(now->lines[i]), summary);
            if (length < 0) length = 0;
            if ((size_t)length >= sizeof line) length = sizeof line - 1;
            memcpy(text + used, line, (size_t)length);
            used += (size_t)length;
        }
        status = folio_buffer_set(out, text, used);
        if (status != FOLIO_STATUS_OK) status = folio_fail(error, status, "out of memory");
    }
    free(text);
    free(matches);
    document_free(before);
    document_free(now);
    return status;
}

/* A line number from 1 to `count`, as an index; -1 otherwise. */
static long line_index(const char *key, size_t count) {
    char *end = NULL;
    long n;
    if (key == NULL || *key < '1' || *key > '9') return -1;
    n = strtol(key, &end, 10);
    return *end == 0 && n >= 1 && (unsigned long)n <= count ? n - 1 : -1;
}

/* `into` with lines of `from` put back: a line still there (into_keys[k] not "") is replaced, one gone is inserted at
 * its old number or at the end. */
static folio_status items_take(const folio_editor *editor, const uint8_t *from_bytes, size_t from_size, const uint8_t *into_bytes,
                               size_t into_size, const char *const *from_keys, const char *const *into_keys, size_t count,
                               folio_buffer *out, folio_buffer *out_description, folio_buffer *error) {
    folio_document *from = NULL, *into = NULL, *result = NULL;
    size_t k, i;
    char description[64];
    folio_status status = op_open(editor, from_bytes, from_size, &from, error);
    if (status != FOLIO_STATUS_OK) return status;
    if ((status = op_open(editor, into_bytes, into_size, &into, error)) != FOLIO_STATUS_OK) { document_free(from); return status; }
    for (k = 0; k < count && status == FOLIO_STATUS_OK; k++) {
        if (line_index(from_keys[k], from->count) < 0 || (into_keys[k][0] != 0 && line_index(into_keys[k], into->count) < 0))
            status = folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, "no such line");
    }
    if (status == FOLIO_STATUS_OK && (result = document_make(into->lines, into->count, NULL, (size_t)-1)) != NULL) {
        char **grown = realloc(result->lines, (result->count + count + 1) * sizeof *grown);
        if (grown == NULL) status = folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
        else result->lines = grown;
        for (k = 0; k < count && status == FOLIO_STATUS_OK; k++) { /* lines still there: replaced where they are */
            long source = line_index(from_keys[k], from->count), target = line_index(into_keys[k], into->count);
            char *copy;
            if (into_keys[k][0] == 0) continue;
            if ((copy = copy_text(from->lines[source], strlen(from->lines[source]))) == NULL) { status = folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory"); break; }
            free(result->lines[target]);
            result->lines[target] = copy;
        }
        for (i = 0; i < from->count && status == FOLIO_STATUS_OK; i++) { /* lines gone: inserted in their old order */
            for (k = 0; k < count; k++) {
                size_t at;
                if (into_keys[k][0] != 0 || line_index(from_keys[k], from->count) != (long)i) continue;
                at = i < result->count ? i : result->count;
                memmove(result->lines + at + 1, result->lines + at, (result->count - at) * sizeof *result->lines);
                if ((result->lines[at] = copy_text(from->lines[i], strlen(from->lines[i]))) == NULL) {
                    memmove(result->lines + at, result->lines + at + 1, (result->count - at) * sizeof *result->lines);
                    status = folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
                    break;
                }
                result->count++;
                break;
            }
        }
    } else if (status == FOLIO_STATUS_OK) {
        status = folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    if (status == FOLIO_STATUS_OK) status = op_serialize(editor, result, out, error);
    if (status == FOLIO_STATUS_OK) {
        if (count == 1) snprintf(description, sizeof description, "brought back line %.20s", from_keys[0]);
        else snprintf(description, sizeof description, "brought back %lu lines", (unsigned long)count);
        if (folio_buffer_set(out_description, description, strlen(description)) != FOLIO_STATUS_OK) {
            folio_buffer_release(out);
            status = folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
        }
    }
    document_free(result);
    document_free(into);
    document_free(from);
    return status;
}

static const folio_items_v1 items_table = {sizeof(folio_items_v1), 0, items_list, items_take};

/* Optional capabilities by versioned id: this editor answers folio.items/1 only. */
static const void *op_extension(const folio_editor *editor, const char *id) {
    (void)editor;
    return id != NULL && strcmp(id, FOLIO_EXTENSION_ITEMS) == 0 ? &items_table : NULL;
}

/* ---- The description: static tables, each struct carrying its size ------------------------------------- */

static const folio_command_info add_command = {
    sizeof(folio_command_info), 0, "add", "Add line", "a", "add TEXT",
};
static const folio_command_info remove_command = {
    sizeof(folio_command_info), FOLIO_COMMAND_NEEDS_SELECTION, "remove", "Remove line", "d", "remove N",
};
static const folio_command_info *const commands[] = {&add_command, &remove_command};

static const char *const conforms_to[] = {"public.plain-text"};
static const folio_type_declaration document_type = {
    sizeof(folio_type_declaration), 0, "com.example.notes", conforms_to, 1, NULL, 0, "A Notes document",
};
static const folio_type_declaration *const declared_types[] = {&document_type};
static const char *const content_types[] = {"com.example.notes"};

static const folio_editor editor_table = {
    sizeof(folio_editor), FOLIO_PRIORITY_DEFAULT, "notes", "Notes",
    content_types, 1, declared_types, 1, commands, 2, NULL,
    op_open, op_apply, op_serialize, op_render, op_release, op_extension,
};
static const folio_editor *const editors[] = {&editor_table};

static const folio_plugin_descriptor descriptor = {
    FOLIO_PLUGIN_MAGIC, FOLIO_PLUGIN_ABI_MAJOR, FOLIO_PLUGIN_ABI_MINOR, sizeof(folio_plugin_descriptor), 0,
    "com.example.plugins.notes", "Notes", "0.1.0", editors, 1,
};

/* The one exported symbol: returns the static descriptor and does nothing else. */
__attribute__((visibility("default"))) const folio_plugin_descriptor *folio_plugin_entry(void) {
    return &descriptor;
}
