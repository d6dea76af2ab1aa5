/*
 * folio_plugin.h: the C ABI between Folio and its editor plugins.
 *
 * Swift has no stable ABI on Linux, so the only thing host and plugin share is this header.
 *
 * Rules:
 *  - Versioning. A plugin exports one function, `folio_plugin_entry`, returning a pointer to a static
 *    descriptor. The host checks the descriptor's magic, ABI major and struct size before it calls anything
 *    else; a plugin built for another major is refused. Minor versions only add: structs carry their size as
 *    their first field (after the magic for the descriptor) and only ever grow at the end, so a host reads a
 *    field only when `struct_size` covers it. Arrays of structs are arrays of pointers, so each element
 *    carries its own size.
 *  - Optional capabilities are looked up by versioned string id (e.g. "folio.semantic-diff/1") through the
 *    editor's `extension` function, which returns a pointer to a static table or NULL.
 *  - Ownership. Inputs are borrowed for the duration of the call. Every buffer the plugin returns carries
 *    the plugin's own release function ("whoever allocates frees"); the host calls `folio_buffer_release`.
 *    Document handles are released with the editor's `release`. Descriptor, editor, command and extension
 *    tables are static: they live as long as the library, which is never unloaded.
 *  - Errors are a status code plus a UTF-8 message buffer. No C++ exception, Swift error or Swift type
 *    crosses this boundary; a plugin must not abort on bad input.
 *  - All strings are NUL-terminated UTF-8.
 */
#ifndef FOLIO_PLUGIN_H
#define FOLIO_PLUGIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Versions ------------------------------------------------------------------------------------------ */

#define FOLIO_PLUGIN_ABI_MAJOR 1
/* 1.1 added the folio.items/1 extension (the items of a version, and taking items from one version into another).
 * 1.2 added the folio.argument-values/1 extension (a command's arguments as the item has them now, to start a form from)
 * and the view pan offset at the end of folio_selection (`pan_x`, `pan_y`). */
#define FOLIO_PLUGIN_ABI_MINOR 2
/* "FOLIOPLG" read as a big-endian 64-bit number: the first field of every descriptor. */
#define FOLIO_PLUGIN_MAGIC 0x464F4C494F504C47ULL
/* The one symbol a plugin exports; type `folio_plugin_entry_fn`. */
#define FOLIO_PLUGIN_ENTRY_SYMBOL "folio_plugin_entry"

/* ---- Status codes -------------------------------------------------------------------------------------- */

typedef int32_t folio_status;
#define FOLIO_STATUS_OK 0
/* A command's arguments are wrong: missing, not a number, out of range. */
#define FOLIO_STATUS_INVALID_ARGUMENT 1
/* The command id is not one of the editor's commands. */
#define FOLIO_STATUS_UNKNOWN_COMMAND 2
/* The document bytes cannot be read by this editor. */
#define FOLIO_STATUS_INVALID_DOCUMENT 3
/* A merge found changes on both sides that it cannot combine. */
#define FOLIO_STATUS_CONFLICT 4
/* The operation or capability is not provided. */
#define FOLIO_STATUS_UNSUPPORTED 5
#define FOLIO_STATUS_OUT_OF_MEMORY 6
/* Anything else; the message says what. */
#define FOLIO_STATUS_INTERNAL 7

/* ---- Buffers ------------------------------------------------------------------------------------------- */

/* Bytes returned by a plugin. The host passes a zeroed buffer; the plugin fills it and sets `release`
 * to its own function that frees `data`. `data` may be NULL when `size` is 0. Text buffers are UTF-8 and,
 * for convenience, NUL-terminated (the NUL is not counted in `size`). */
typedef struct folio_buffer {
    uint8_t *data;
    size_t size;
    void (*release)(struct folio_buffer *buffer);
} folio_buffer;

/* Releases a buffer with the function that came with it and zeroes it. Safe on a zeroed buffer. */
static inline void folio_buffer_release(folio_buffer *buffer) {
    if (buffer == NULL) return;
    if (buffer->release != NULL) buffer->release(buffer);
    buffer->data = NULL;
    buffer->size = 0;
    buffer->release = NULL;
}

/* ---- Descriptions -------------------------------------------------------------------------------------- */

#define FOLIO_PRIORITY_DEFAULT 0 /* the editor to use for its content types unless the user chose another */
#define FOLIO_PRIORITY_OPTION 1  /* offered in "reopen with", never chosen over a default */

#define FOLIO_COMMAND_NEEDS_SELECTION 0x1u

/* One command an editor offers. Arguments are positional strings; items are numbered from 1. */
typedef struct folio_command_info {
    uint32_t struct_size;
    uint32_t flags;          /* FOLIO_COMMAND_* bits */
    const char *id;          /* "toggle" */
    const char *title;       /* "Toggle item" */
    const char *shortcut;    /* "space", "ctrl+d", or "" */
    const char *usage;       /* "toggle N" */
} folio_command_info;

/* A content type a plugin declares, with the types it conforms to. */
typedef struct folio_type_declaration {
    uint32_t struct_size;
    uint32_t reserved;
    const char *identifier;             /* "org.folio.checklist" */
    const char *const *conforms_to;     /* { "public.json" } */
    size_t conforms_to_count;
    const char *const *extensions;      /* file extensions without the dot */
    size_t extension_count;
    const char *description;
} folio_type_declaration;

/* Cursor and selection in the terms of the editor's view: items numbered from 1, 0 for none.
 * Read a field only when `struct_size` covers it (FOLIO_SELECTION_HAS): a 1.0/1.1 host passes a struct without the pan. */
typedef struct folio_selection {
    uint32_t struct_size;
    uint32_t reserved;
    int64_t cursor;  /* the item under the cursor */
    int64_t anchor;  /* the other end of a range, or 0 */
    int64_t scroll;  /* the first view line to show, from 0 */
    /* ABI 1.2: how far the user panned the view from where the editor would put it, in cells (columns right, rows down;
     * negative: left, up). The host changes it with shift+arrows and resets it to 0 when the cursor or the selection
     * moves, so an editor that follows the cursor adds it to the origin it chose. Editors without a plane ignore it. */
    int64_t pan_x;
    int64_t pan_y;
} folio_selection;

/* Whether `selection` (not NULL) carries `field`: its struct_size covers the field's end. */
#define FOLIO_SELECTION_HAS(selection, field) \
    ((selection)->struct_size >= offsetof(folio_selection, field) + sizeof(((folio_selection *)0)->field))

/* An editor's open document: opaque to the host. */
typedef struct folio_document folio_document;

typedef struct folio_editor folio_editor;

/* An editor: what it edits, its commands, and the operations on its documents.
 * Every operation receives the editor itself first, so one set of functions can serve several editors. */
struct folio_editor {
    uint32_t struct_size;
    int32_t priority;                            /* FOLIO_PRIORITY_* */
    const char *id;                              /* "checklist": unique among all plugins */
    const char *name;                            /* "Checklist" */
    const char *const *content_types;            /* the types it edits (and everything conforming to them) */
    size_t content_type_count;
    const folio_type_declaration *const *declared_types;
    size_t declared_type_count;
    const folio_command_info *const *commands;
    size_t command_count;
    void *context;                               /* the plugin's own; the host never touches it */

    /* Reads a document from bytes (borrowed). On success sets *out_document. */
    folio_status (*open)(const folio_editor *editor, const uint8_t *bytes, size_t size,
                         folio_document **out_document, folio_buffer *out_error);

    /* Applies a command to a document without changing it. `arguments_json` is a JSON array of strings.
     * `selection` may be NULL. On success sets *out_document to the new state (a new handle the host
     * releases) and fills `out_description` with a one-line description of the change ("checked 'Milk'"). */
    folio_status (*apply)(const folio_editor *editor, const folio_document *document, const char *command_id,
                          const char *arguments_json, const folio_selection *selection,
                          folio_document **out_document, folio_buffer *out_description, folio_buffer *out_error);

    /* Writes a document as bytes (the file's new content). */
    folio_status (*serialize)(const folio_editor *editor, const folio_document *document,
                              folio_buffer *out_bytes, folio_buffer *out_error);

    /* Renders a view for a terminal of width x height cells: UTF-8 text, lines separated by '\n',
     * at most `height` lines of at most `width` cells each. `selection` may be NULL. */
    folio_status (*render)(const folio_editor *editor, const folio_document *document, uint32_t width,
                           uint32_t height, const folio_selection *selection, folio_buffer *out_text,
                           folio_buffer *out_error);

    /* Releases a document handle. */
    void (*release)(const folio_editor *editor, folio_document *document);

    /* Returns the static table of an optional capability by versioned id, or NULL. May itself be NULL. */
    const void *(*extension)(const folio_editor *editor, const char *extension_id);
};

/* The plugin: checked field by field before any editor function is called. */
typedef struct folio_plugin_descriptor {
    uint64_t magic;          /* FOLIO_PLUGIN_MAGIC */
    uint32_t abi_major;      /* FOLIO_PLUGIN_ABI_MAJOR the plugin was built with */
    uint32_t abi_minor;      /* FOLIO_PLUGIN_ABI_MINOR the plugin was built with */
    uint32_t struct_size;    /* sizeof(folio_plugin_descriptor) the plugin was built with */
    uint32_t reserved;
    const char *id;          /* "org.folio.checklist" */
    const char *name;        /* "Checklist" */
    const char *version;     /* "1.0.0" */
    const folio_editor *const *editors;
    size_t editor_count;
} folio_plugin_descriptor;

/* `folio_plugin_entry`: returns the plugin's static descriptor. Must do nothing else (no allocation,
 * no I/O) so that the host can check versions before any real plugin code runs. */
typedef const folio_plugin_descriptor *(*folio_plugin_entry_fn)(void);

/* ---- Extensions ---------------------------------------------------------------------------------------- */

/* Semantic diff: describes the change between two versions of a document, one change per line
 * ("checked 'Milk'", "moved 'Eggs' to 1"). An empty text means no change the editor can see. */
#define FOLIO_EXTENSION_SEMANTIC_DIFF "folio.semantic-diff/1"
typedef struct folio_semantic_diff_v1 {
    uint32_t struct_size;
    uint32_t reserved;
    folio_status (*diff)(const folio_editor *editor, const uint8_t *old_bytes, size_t old_size,
                         const uint8_t *new_bytes, size_t new_size, folio_buffer *out_text,
                         folio_buffer *out_error);
} folio_semantic_diff_v1;

/* Semantic merge: three-way merge item by item. Returns FOLIO_STATUS_OK with the merged bytes, or
 * FOLIO_STATUS_CONFLICT with one line per conflict in `out_conflicts` (and `out_merged` left empty). */
#define FOLIO_EXTENSION_SEMANTIC_MERGE "folio.semantic-merge/1"
typedef struct folio_semantic_merge_v1 {
    uint32_t struct_size;
    uint32_t reserved;
    folio_status (*merge)(const folio_editor *editor, const uint8_t *base, size_t base_size,
                          const uint8_t *ours, size_t ours_size, const uint8_t *theirs, size_t theirs_size,
                          folio_buffer *out_merged, folio_buffer *out_conflicts, folio_buffer *out_error);
} folio_semantic_merge_v1;

/* Items (ABI 1.1): what Folio needs for the history of one item and for bringing one item back from an old version.
 * A host finds it like any extension: `extension(editor, FOLIO_EXTENSION_ITEMS)` returns this table, or NULL when
 * the editor has none (then Folio refuses item history and item restore with one line). */
#define FOLIO_EXTENSION_ITEMS "folio.items/1"
typedef struct folio_items_v1 {
    uint32_t struct_size;
    uint32_t reserved;
    /* The items of `bytes` in view order, one line each (lines separated by '\n'), four fields separated by tabs:
     *
     *     KEY \t PREVIOUS \t FINGERPRINT \t SUMMARY
     *
     * KEY: the item's number as the view shows it ("3", "1.2"), unique within the version, no spaces.
     * PREVIOUS: when `previous` is not NULL (the bytes of an earlier version, possibly empty), the KEY the same item has
     *   in `previous` as the editor's semantic diff matches them (a renamed, moved or changed item keeps its match),
     *   or empty when the item is new; each key of `previous` is used at most once. Empty when `previous` is NULL.
     * FINGERPRINT: at most 64 printable ASCII characters that change whenever the item's content changes and not
     *   when only its position does (a hash of its fields is enough).
     * SUMMARY: a short line saying what the item is ("[x] Milk"), at most 200 characters.
     * FOLIO_STATUS_INVALID_DOCUMENT when either document cannot be read. */
    folio_status (*list)(const folio_editor *editor, const uint8_t *previous, size_t previous_size,
                         const uint8_t *bytes, size_t size, folio_buffer *out_text, folio_buffer *out_error);
    /* The bytes of `into` with `count` items taken from `from`: item `from_keys[i]` (a KEY of `from`) replaces item
     * `into_keys[i]` (a KEY of `into`, the same item as Folio matched it) where it is, or, when `into_keys[i]` is ""
     * (the item is gone from `into`), is inserted at the position it had in `from` or the nearest valid one.
     * Everything else in `into` stays as it is. `out_description` gets one line for the commit ("brought back
     * 'Milk' at 3"). With `count` 0 the result is `into` unchanged. FOLIO_STATUS_INVALID_ARGUMENT for a key that
     * names no item (or an item that cannot be put back, with the reason). */
    folio_status (*take)(const folio_editor *editor, const uint8_t *from, size_t from_size, const uint8_t *into,
                         size_t into_size, const char *const *from_keys, const char *const *into_keys, size_t count,
                         folio_buffer *out_bytes, folio_buffer *out_description, folio_buffer *out_error);
} folio_items_v1;

/* Argument values (ABI 1.2): a command's arguments as the item has them now, so that the command's form starts from
 * them (a scene's whole text for "set-text ACT SCENE TEXT", a shape's size for "resize N W H") instead of empty.
 * `values` writes to `out_json` a JSON array with one element per argument of `command_id` (the words of its usage after
 * the id): the argument's current value as a string, or null where the editor has none to suggest (the host fills item
 * numbers from the cursor itself). `selection` (may be NULL) is the cursor and range the command would act on.
 * FOLIO_STATUS_UNSUPPORTED when the editor has no values for the command; FOLIO_STATUS_UNKNOWN_COMMAND for an id it does
 * not know. The host treats the answer as a suggestion: it checks it (UTF-8, at most 1 MiB, one element per argument,
 * strings or null) and ignores one that fails, and never waits for it before showing the form. */
#define FOLIO_EXTENSION_ARGUMENT_VALUES "folio.argument-values/1"
typedef struct folio_argument_values_v1 {
    uint32_t struct_size;
    uint32_t reserved;
    folio_status (*values)(const folio_editor *editor, const folio_document *document, const char *command_id,
                           const folio_selection *selection, folio_buffer *out_json, folio_buffer *out_error);
} folio_argument_values_v1;

/* ---- Helpers for plugins ------------------------------------------------------------------------------ */

/* Static inline, so that each plugin image has its own copy and frees what it allocated, and so that this header
 * is all a plugin needs (no library to link). */

/* Frees a buffer filled by folio_buffer_set (its `release`). */
static inline void folio_buffer_free_(folio_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
}

/* Fills `buffer` with a malloc'd, NUL-terminated copy of `size` bytes and a release that frees it.
 * Returns FOLIO_STATUS_OUT_OF_MEMORY when allocation fails. A NULL buffer is ignored. */
static inline folio_status folio_buffer_set(folio_buffer *buffer, const void *bytes, size_t size) {
    uint8_t *copy;
    if (buffer == NULL) return FOLIO_STATUS_OK;
    buffer->data = NULL;
    buffer->size = 0;
    buffer->release = NULL;
    if (size == SIZE_MAX) return FOLIO_STATUS_OUT_OF_MEMORY;
    copy = (uint8_t *)malloc(size + 1);
    if (copy == NULL) return FOLIO_STATUS_OUT_OF_MEMORY;
    if (size > 0 && bytes != NULL) memcpy(copy, bytes, size);
    copy[size] = 0;
    buffer->data = copy;
    buffer->size = size;
    buffer->release = folio_buffer_free_;
    return FOLIO_STATUS_OK;
}

/* folio_buffer_set with a C string; returns `status` so that `return folio_fail(err, CODE, "...")` works. */
static inline folio_status folio_fail(folio_buffer *error, folio_status status, const char *message) {
    if (message == NULL) message = "";
    folio_buffer_set(error, message, strlen(message));
    return status;
}

#ifdef __cplusplus
}
#endif

#endif /* FOLIO_PLUGIN_H */
