import FolioCore
import FolioCLITestSupport
import FolioTestSupport
import Foundation
import XCTest

/// "tally": a small C editor plugin written from `folio_plugin.h` alone, whose commands misbehave on purpose.
/// The document is a decimal count. `inc` counts up; every other command breaks something.
enum MisbehavingPlugin {
    static let commands = ["inc", "crash", "abort", "spin", "hog", "baddesc", "garbage", "badbuf", "bigbuf", "exit"]

    /// The C source; `defines` turn on load-time misbehaviour (CTOR_ABORT, CTOR_LOOP, BAD_DESCRIPTOR).
    static func source(defines: [String] = []) -> String {
        let commandTable = commands.enumerated().map { index, id in
            "static const folio_command_info c\(index) = { sizeof(folio_command_info), 0, \"\(id)\", \"\(id)\", \"\", \"\(id)\" };"
        }.joined(separator: "\n")
        let commandList = commands.indices.map { "&c\($0)" }.joined(separator: ", ")
        return defines.map { "#define \($0) 1\n" }.joined() + """
        static const char build_tag[] __attribute__((used)) = "\(defines.joined(separator: " "))";
        #include "folio_plugin.h"
        #include <stdlib.h>
        #include <string.h>
        #include <stdio.h>
        #include <unistd.h>

        struct folio_document { long count; char text[32]; };

        static void t_free(folio_buffer *b) { free(b->data); }
        static folio_status t_set(folio_buffer *b, const void *bytes, size_t size) {
            b->data = malloc(size + 1);
            if (!b->data) return FOLIO_STATUS_OUT_OF_MEMORY;
            memcpy(b->data, bytes, size); b->data[size] = 0; b->size = size; b->release = t_free;
            return FOLIO_STATUS_OK;
        }

        #ifdef CTOR_ABORT
        __attribute__((constructor)) static void boom(void) { abort(); }
        #endif
        #ifdef CTOR_LOOP
        __attribute__((constructor)) static void forever(void) { for (volatile int i = 0;; i++) {} }
        #endif

        static folio_status t_open(const folio_editor *e, const uint8_t *bytes, size_t size, folio_document **out, folio_buffer *err) {
            folio_document *d = calloc(1, sizeof *d);
            if (!d) return FOLIO_STATUS_OUT_OF_MEMORY;
            size_t n = size < sizeof d->text - 1 ? size : sizeof d->text - 1;
            memcpy(d->text, bytes, n);
            if (strncmp(d->text, "open-crash", 10) == 0) { *(volatile int *)0 = 1; }
            d->count = strtol(d->text, NULL, 10);
            *out = d;
            return FOLIO_STATUS_OK;
        }

        static folio_status t_apply(const folio_editor *e, const folio_document *doc, const char *cmd, const char *args,
                                    const folio_selection *sel, folio_document **out, folio_buffer *desc, folio_buffer *err) {
            folio_document *d = calloc(1, sizeof *d);
            if (!d) return FOLIO_STATUS_OUT_OF_MEMORY;
            d->count = doc->count + 1;
            snprintf(d->text, sizeof d->text, "%ld", d->count);
            char line[64];
            snprintf(line, sizeof line, "counted %ld", d->count);
            if (strcmp(cmd, "inc") == 0) {
            } else if (strcmp(cmd, "crash") == 0) { *(volatile int *)0 = 1;
            } else if (strcmp(cmd, "abort") == 0) {
                fprintf(stderr, "tally: about to give up\\nFatal error: Index out of range\\nCurrent stack trace:\\n0 tally_apply\\n"); fflush(stderr); abort();
            } else if (strcmp(cmd, "spin") == 0) { for (volatile long i = 0;; i++) {}
            } else if (strcmp(cmd, "hog") == 0) {
                for (;;) { char *p = malloc(64 << 20); if (!p) abort(); memset(p, 1, 64 << 20); }
            } else if (strcmp(cmd, "baddesc") == 0) {
                *out = d;
                static const char bad[] = "bad \\xff\\xfe utf8 \\x1b[2J\\nsecond line";
                return t_set(desc, bad, sizeof bad - 1);
            } else if (strcmp(cmd, "garbage") == 0) {
                write(3, "this is not the protocol at all", 31);
            } else if (strcmp(cmd, "badbuf") == 0) {
                *out = d;
                desc->data = (uint8_t *)16; desc->size = 100; desc->release = NULL;
                return FOLIO_STATUS_OK;
            } else if (strcmp(cmd, "bigbuf") == 0) {
                *out = d;
                size_t n = 2 << 20; char *big = malloc(n); memset(big, 'x', n);
                folio_status s = t_set(desc, big, n); free(big); return s;
            } else if (strcmp(cmd, "exit") == 0) { exit(3);
            } else { free(d); return t_set(err, "no such command", 15) == FOLIO_STATUS_OK ? FOLIO_STATUS_UNKNOWN_COMMAND : FOLIO_STATUS_OUT_OF_MEMORY; }
            *out = d;
            return t_set(desc, line, strlen(line));
        }

        static folio_status t_serialize(const folio_editor *e, const folio_document *doc, folio_buffer *out, folio_buffer *err) {
            char text[32]; snprintf(text, sizeof text, "%ld\\n", doc->count);
            return t_set(out, text, strlen(text));
        }

        static folio_status t_render(const folio_editor *e, const folio_document *doc, uint32_t w, uint32_t h,
                                     const folio_selection *sel, folio_buffer *out, folio_buffer *err) {
            if (strncmp(doc->text, "render-crash", 12) == 0) { *(volatile int *)0 = 1; }
            if (strncmp(doc->text, "render-spin", 11) == 0) { for (volatile long i = 0;; i++) {} }
            char text[64]; snprintf(text, sizeof text, "tally \\x1b[31m%ld", doc->count);
            return t_set(out, text, strlen(text));
        }

        static void t_release(const folio_editor *e, folio_document *doc) { free(doc); }

        static folio_status t_diff(const folio_editor *e, const uint8_t *o, size_t os, const uint8_t *n, size_t ns,
                                   folio_buffer *out, folio_buffer *err) {
            if (ns >= 10 && memcmp(n, "diff-crash", 10) == 0) { *(volatile int *)0 = 1; }
            return t_set(out, "changed the count", 17);
        }
        static const folio_semantic_diff_v1 diff_table = { sizeof(folio_semantic_diff_v1), 0, t_diff };
        static const void *t_extension(const folio_editor *e, const char *id) {
            return strcmp(id, FOLIO_EXTENSION_SEMANTIC_DIFF) == 0 ? &diff_table : NULL;
        }

        \(commandTable)
        static const folio_command_info *const commands[] = { \(commandList) };
        \(PluginCSource.plainTextType("org.test.tally", extension: "tally", description: "A tally"))
        static const folio_editor editor = {
            .struct_size = sizeof(folio_editor), .priority = FOLIO_PRIORITY_DEFAULT, .id = "tally", .name = "Tally",
            .content_types = types, .content_type_count = 1, .declared_types = declared, .declared_type_count = 1,
            .commands = commands, .command_count = \(commands.count),
            .open = t_open, .apply = t_apply, .serialize = t_serialize, .render = t_render, .release = t_release, .extension = t_extension,
        };
        \(PluginCSource.descriptor(id: "test.tally", name: "Tally", entry: false))
        const folio_plugin_descriptor *folio_plugin_entry(void) {
        #ifdef BAD_DESCRIPTOR
            return (const folio_plugin_descriptor *)16;
        #else
            return &descriptor;
        #endif
        }
        """
    }

    static var manifest: String {
        let commandJSON = commands.map { #"{"id": "\#($0)", "title": "\#($0)", "shortcut": "", "usage": "\#($0)", "needsSelection": false}"# }
        return """
        {"id": "test.tally", "name": "Tally", "version": "1.0.0", "abi": 1, "library": "libtally.so",
         "editors": [{"id": "tally", "name": "Tally", "contentTypes": ["org.test.tally"], "priority": "default",
           "declaredTypes": [{"identifier": "org.test.tally", "conformsTo": ["public.plain-text"], "extensions": ["tally"], "description": "A tally"}],
           "extensions": ["folio.semantic-diff/1"], "commands": [\(commandJSON.joined(separator: ", "))]}]}
        """
    }

    /// Compiles the plugin with its manifest into `folder` (mode 0755); returns the library.
    @discardableResult
    static func build(in folder: URL, defines: [String] = []) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        chmod(folder.path, 0o755)
        let library = try PluginFixtures.compilePlugin(source(defines: defines), named: "libtally.so", in: folder)
        let manifestURL = folder.appendingPathComponent("libtally.folio-plugin.json")
        try Data(manifest.utf8).write(to: manifestURL)
        chmod(manifestURL.path, 0o644)
        return library
    }
}
