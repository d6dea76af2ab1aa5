import FolioCore
@testable import FolioPlugins
import FolioCLITestSupport
import Foundation
import XCTest

/// `folio plugins validate`: a small C "counter" plugin passes; built with one defect each, it fails the right test
/// for the right reason, with its reproducer kept; the bundled plugins pass.
final class PluginValidateTests: PluginTempTestCase {
    override var temporaryName: String { "folio-validate" }

    /// The counter: a document is a decimal count; `bump N` (1…1000) adds N, `reset` sets 0. `defects` switch on one
    /// misbehaviour each.
    static func counterSource(_ defects: [String] = []) -> String {
        defects.map { "#define \($0) 1\n" }.joined() + """
        #include "folio_plugin.h"
        #include <errno.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        struct folio_document { long count; };
        #ifdef ABORT_AT_LOAD
        __attribute__((constructor)) static void boom(void) { abort(); }
        #endif
        static void c_free(folio_buffer *b) { free(b->data); }
        static void c_keep(folio_buffer *b) { (void)b; }
        static void c_free_twice(folio_buffer *b) { free(b->data); free(b->data); }
        static folio_status c_set(folio_buffer *b, const char *bytes, size_t n, void (*release)(folio_buffer *)) {
            b->data = malloc(n + 1); if (!b->data) return FOLIO_STATUS_OUT_OF_MEMORY;
            memcpy(b->data, bytes, n); b->data[n] = 0; b->size = n; b->release = release; return FOLIO_STATUS_OK;
        }
        static folio_status c_fail(folio_buffer *err, folio_status status, const char *message) {
            c_set(err, message, strlen(message), c_free); return status;
        }
        static folio_status c_open(const folio_editor *e, const uint8_t *bytes, size_t size, folio_document **out, folio_buffer *err) {
            long count = 0;
            for (size_t i = 0; i < size; i++) {
                if (bytes[i] == '\\n' && i == size - 1) break;
                if (bytes[i] < '0' || bytes[i] > '9' || count > 100000000) return c_fail(err, FOLIO_STATUS_INVALID_DOCUMENT, "not a count");
                count = count * 10 + (bytes[i] - '0');
            }
            folio_document *d = calloc(1, sizeof *d); if (!d) return FOLIO_STATUS_OUT_OF_MEMORY;
            d->count = count; *out = d; return FOLIO_STATUS_OK;
        }
        static folio_status c_apply(const folio_editor *e, const folio_document *doc, const char *cmd, const char *args,
                                    const folio_selection *sel, folio_document **out, folio_buffer *desc, folio_buffer *err) {
            long n = 0;
            if (strcmp(cmd, "bump") == 0) {
                const char *quote = strchr(args, '"');
        #ifdef BAD_UTF8_MESSAGE
                if (!quote) return c_fail(err, FOLIO_STATUS_INVALID_ARGUMENT, "bump needs N \\xff\\xfe");
        #else
                if (!quote) return c_fail(err, FOLIO_STATUS_INVALID_ARGUMENT, "bump needs N");
        #endif
                char *end; errno = 0; n = strtol(quote + 1, &end, 10);
        #ifdef CRASH_ON_NEGATIVE
                if (n < 0) { *(volatile int *)0 = 1; }
        #endif
                if (errno || *end != '"' || n < 1 || n > 1000) return c_fail(err, FOLIO_STATUS_INVALID_ARGUMENT, "N must be 1 to 1000");
            } else if (strcmp(cmd, "reset") != 0) {
                return c_fail(err, FOLIO_STATUS_UNKNOWN_COMMAND, "no such command");
            }
            folio_document *d = calloc(1, sizeof *d); if (!d) return FOLIO_STATUS_OUT_OF_MEMORY;
            d->count = n == 0 ? 0 : doc->count + n;
            *out = d;
            return c_set(desc, n == 0 ? "reset" : "bumped", n == 0 ? 5 : 6, c_free);
        }
        static folio_status c_serialize(const folio_editor *e, const folio_document *doc, folio_buffer *out, folio_buffer *err) {
            char text[32];
        #ifdef NO_ROUND_TRIP
            snprintf(text, sizeof text, "%ld\\n", doc->count + 1);
        #else
            snprintf(text, sizeof text, "%ld\\n", doc->count);
        #endif
        #ifdef LEAK_SERIALIZE
            return c_set(out, text, strlen(text), c_keep);
        #else
            return c_set(out, text, strlen(text), c_free);
        #endif
        }
        static folio_status c_render(const folio_editor *e, const folio_document *doc, uint32_t w, uint32_t h,
                                     const folio_selection *sel, folio_buffer *out, folio_buffer *err) {
        #ifdef SPIN_AT_1X1
            if (w == 1) { for (volatile long i = 0;; i++) {} }
        #endif
            char text[64];
        #ifdef BAD_UTF8_RENDER
            snprintf(text, sizeof text, "\\xff count: %ld", doc->count);
        #else
            snprintf(text, sizeof text, "count: %ld", doc->count);
        #endif
            size_t n = strlen(text) < w ? strlen(text) : w;
        #ifdef DOUBLE_FREE_RENDER
            return c_set(out, text, n, c_free_twice);
        #else
            return c_set(out, text, n, c_free);
        #endif
        }
        static void c_release(const folio_editor *e, folio_document *doc) { free(doc); }
        static folio_status c_diff(const folio_editor *e, const uint8_t *o, size_t os, const uint8_t *n, size_t ns, folio_buffer *out, folio_buffer *err) {
            return c_set(out, "", 0, c_free);
        }
        static const folio_semantic_diff_v1 diff_table = { sizeof(folio_semantic_diff_v1), 0, c_diff };
        /* Items: a count is one item, key "1" (none for an empty document), its fingerprint the count. */
        static folio_status c_items(const folio_editor *e, const uint8_t *prev, size_t prev_size, const uint8_t *bytes, size_t size,
                                    folio_buffer *out, folio_buffer *err) {
            folio_document *d = NULL;
            folio_status status = c_open(e, bytes, size, &d, err);
            if (status != FOLIO_STATUS_OK) return status;
            char text[96] = "";
        #ifdef ITEMS_REPEATED_KEY
            if (size > 0) snprintf(text, sizeof text, "1\\t%s\\t%ld\\tcount %ld\\n1\\t\\t0\\tagain\\n", prev ? "1" : "", d->count, d->count);
        #else
            if (size > 0) snprintf(text, sizeof text, "1\\t%s\\t%ld\\tcount %ld\\n", prev && prev_size > 0 ? "1" : "", d->count, d->count);
        #endif
            free(d);
            return c_set(out, text, strlen(text), c_free);
        }
        static folio_status c_take(const folio_editor *e, const uint8_t *from, size_t from_size, const uint8_t *into, size_t into_size,
                                   const char *const *from_keys, const char *const *into_keys, size_t count,
                                   folio_buffer *out, folio_buffer *desc, folio_buffer *err) {
            for (size_t k = 0; k < count; k++)
                if (strcmp(from_keys[k], "1") != 0 || from_size == 0) return c_fail(err, FOLIO_STATUS_INVALID_ARGUMENT, "no such item");
        #ifndef ITEMS_TAKE_IGNORES_INTO
            if (count == 0) return c_set(out, (const char *)into, into_size, c_free) == FOLIO_STATUS_OK ? c_set(desc, "took nothing", 12, c_free) : FOLIO_STATUS_OUT_OF_MEMORY;
        #endif
            const uint8_t *source = from; size_t source_size = from_size;
            folio_document *d = NULL;
            folio_status status = c_open(e, source, source_size, &d, err);
            if (status != FOLIO_STATUS_OK) return status;
            status = c_serialize(e, d, out, err);
            free(d);
            if (status != FOLIO_STATUS_OK) return status;
            return c_set(desc, "took the count", 14, c_free);
        }
        static const folio_items_v1 items_table = { sizeof(folio_items_v1), 0, c_items, c_take };
        /* Argument values: bump's N starts from the count itself; reset has none. */
        static folio_status c_values(const folio_editor *e, const folio_document *doc, const char *cmd, const folio_selection *sel,
                                     folio_buffer *out, folio_buffer *err) {
        #ifdef VALUES_CRASH_PAST_END
            if (sel && sel->cursor > 1000) { *(volatile int *)0 = 1; }
        #endif
        #ifdef VALUES_SPIN_ON_RANGE
            if (sel && sel->anchor > 0) { for (volatile long i = 0;; i++) {} }
        #endif
            if (strcmp(cmd, "reset") == 0) return FOLIO_STATUS_UNSUPPORTED;
            if (strcmp(cmd, "bump") != 0) return c_fail(err, FOLIO_STATUS_UNKNOWN_COMMAND, "no such command");
        #ifdef VALUES_HUGE
            size_t huge = 3 << 20; char *big = malloc(huge + 8); if (!big) return FOLIO_STATUS_OUT_OF_MEMORY;
            big[0] = '['; big[1] = '"'; memset(big + 2, 'x', huge); big[huge + 2] = '"'; big[huge + 3] = ']';
            folio_status s = c_set(out, big, huge + 4, c_free); free(big); return s;
        #endif
        #ifdef VALUES_WRONG_COUNT
            const char *format = "[\\\"%ld\\\", null]";
        #else
            const char *format = "[\\\"%ld\\\"]";
        #endif
            char text[64];
            snprintf(text, sizeof text, format, doc->count);
            return c_set(out, text, strlen(text), c_free);
        }
        static const folio_argument_values_v1 values_table = { sizeof(folio_argument_values_v1), 0, c_values };
        static const void *c_extension(const folio_editor *e, const char *id) {
        #ifdef EXTENSION_FOR_ANY_ID
            return &diff_table;
        #else
        #ifdef ITEMS
            if (strcmp(id, FOLIO_EXTENSION_ITEMS) == 0) return &items_table;
        #endif
        #ifdef ARGUMENT_VALUES
            if (strcmp(id, FOLIO_EXTENSION_ARGUMENT_VALUES) == 0) return &values_table;
        #endif
            return strcmp(id, FOLIO_EXTENSION_SEMANTIC_DIFF) == 0 ? &diff_table : NULL;
        #endif
        }
        static const folio_command_info bump = { sizeof(folio_command_info), 0, "bump", "Bump", "b", "bump N" };
        static const folio_command_info reset = { sizeof(folio_command_info), 0, "reset", "Reset", "", "reset" };
        #ifdef DUPLICATE_COMMAND
        static const folio_command_info *const commands[] = { &bump, &bump };
        #else
        static const folio_command_info *const commands[] = { &bump, &reset };
        #endif
        static const char *const types[] = { "org.test.counter" };
        static const folio_editor editor = {
        #ifdef SMALL_EDITOR_TABLE
            .struct_size = 16,
        #else
            .struct_size = sizeof(folio_editor),
        #endif
            .priority = FOLIO_PRIORITY_DEFAULT, .id = "counter", .name = "Counter", .content_types = types, .content_type_count = 1,
            .commands = commands, .command_count = 2,
            .open = c_open, .apply = c_apply, .serialize = c_serialize, .render = c_render, .release = c_release, .extension = c_extension,
        };
        \(PluginCSource.descriptor(id: "org.test.counter", name: "Counter"))
        """
    }

    private func validate(_ defects: [String] = [], timeout: Duration? = nil, sample: String? = nil) throws -> PluginValidationReport {
        let library = try PluginFixtures.compilePlugin(Self.counterSource(defects), named: "libcounter.so", in: temp.url)
        var validator = PluginValidator(library: library, hostExecutable: PluginFixtures.buildFolder.appendingPathComponent("folio-plugin-host"),
                                        environment: temp.environment(), reproducers: temp.path("reproducers"))
        if let sample { validator.samples = [try temp.write("sample.count", sample)] }
        validator.timeout = timeout
        validator.seed = 1
        return try validator.run()
    }

    private func failures(_ report: PluginValidationReport) -> [String] { report.tests.filter { !$0.passed }.map(\.name) }

    func testGivenAWellBehavedPluginWhenValidatedThenEveryTestPassesInItsOwnProcessAndNoReproducerIsKept() throws {
        let report = try validate()
        XCTAssertEqual(failures(report), [], report.tests.filter { !$0.passed }.map(\.details).joined(separator: "\n"))
        let names = Set(report.tests.map(\.name))
        for expected in ["descriptor", "documents/counter/empty", "documents/counter/malformed", "documents/counter/huge", "documents/counter/invalid-utf8",
                         "samples/counter", "round-trip/counter", "render/counter/1x1", "render/counter/500x200",
                         "commands/counter/bump/missing", "commands/counter/bump/wrong-type", "commands/counter/bump/out-of-range-zero",
                         "commands/counter/bump/out-of-range-negative", "commands/counter/bump/out-of-range-overflow", "commands/counter/bump/huge",
                         "commands/counter/reset/missing", "commands/counter/folio-validate-no-such-command/unknown", "extensions/counter", "buffers/counter"] {
            XCTAssertTrue(names.contains(expected), "missing test \(expected)")
        }
        XCTAssertNil(report.reproducers)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.path("reproducers").path))
    }

    func testGivenAnItemsExtensionWhenValidatedThenAGoodOnePassesAndARepeatedKeyOrATakeThatIgnoresIntoFailsTheItemsTest() throws {
        // Given the counter with a working folio.items/1: the items test passes
        let good = try validate(["ITEMS"], sample: "7\n")
        XCTAssertEqual(failures(good), [], good.tests.filter { !$0.passed }.map(\.details).joined(separator: "\n"))
        XCTAssertTrue(good.tests.contains { $0.name == "items/counter" })
        // When its list repeats a key, the items test fails saying so
        let repeated = try validate(["ITEMS", "ITEMS_REPEATED_KEY"], sample: "7\n")
        XCTAssertEqual(failures(repeated), ["items/counter"])
        XCTAssertTrue(try XCTUnwrap(repeated.tests.first { !$0.passed }).details.contains("the key '1' is repeated"), repeated.tests.map(\.details).joined())
        // When its take returns the version taken from even for no items, taking nothing is found to change the document
        let ignoring = try validate(["ITEMS", "ITEMS_TAKE_IGNORES_INTO"], sample: "7\n")
        XCTAssertEqual(failures(ignoring), ["items/counter"])
        let details = try XCTUnwrap(ignoring.tests.first { !$0.passed }).details
        XCTAssertEqual(details, "take(none) does not give the empty document's items: 1 items vs 0, first difference at item 1")
    }

    func testGivenArgumentValuesWhenValidatedThenGoodAnswersPassAndAnAnswerFolioWouldIgnoreOrACrashFailsThatTest() throws {
        // Given the counter answering folio.argument-values/1 (bump's N from the count, none for reset): every test passes
        let good = try validate(["ARGUMENT_VALUES"], sample: "7\n")
        XCTAssertEqual(failures(good), [], good.tests.filter { !$0.passed }.map(\.details).joined(separator: "\n"))
        XCTAssertTrue(good.tests.contains { $0.name == "argument-values/counter" && $0.passed })
        // When it answers two values for bump's one argument, the test fails as Folio would ignore the answer
        let wrong = try validate(["ARGUMENT_VALUES", "VALUES_WRONG_COUNT"], sample: "7\n")
        XCTAssertEqual(failures(wrong), ["argument-values/counter"])
        let failed = try XCTUnwrap(wrong.tests.first { !$0.passed })
        XCTAssertEqual(failed.details, "argument values of 'bump' for no selection: the answer has 2 values for 1 arguments (Folio ignores such an answer)")
        XCTAssertTrue(failed.inputs.contains { $0.hasSuffix(".answers") && FileManager.default.fileExists(atPath: $0) }, "\(failed.inputs)")
        // When it answers 3 MiB, the test fails on the limit, and no more than the limit reached Folio
        let huge = try validate(["ARGUMENT_VALUES", "VALUES_HUGE"], sample: "7\n")
        let tooLong = try XCTUnwrap(huge.tests.first { !$0.passed })
        XCTAssertEqual(tooLong.details, "argument values of 'bump' for no selection: the answer is 1048577 bytes, over the limit of 1048576 (Folio ignores such an answer)")
        let answers = try XCTUnwrap(tooLong.inputs.first { $0.hasSuffix(".answers") })
        XCTAssertLessThan(try XCTUnwrap(FileManager.default.attributesOfItem(atPath: answers)[.size] as? Int), 4 * 2 * (1 << 20) + 4096)
        // When it crashes on a cursor past the last item, the test names the signal and the call
        let crashing = try validate(["ARGUMENT_VALUES", "VALUES_CRASH_PAST_END"], sample: "7\n")
        XCTAssertEqual(failures(crashing), ["argument-values/counter"])
        let crash = try XCTUnwrap(crashing.tests.first { !$0.passed })
        XCTAssertEqual(crash.signal, "SIGSEGV")
        XCTAssertEqual(crash.details, "crashed (SIGSEGV) while argument values of 'bump' for item 1000000")
        // When it spins on a range, the test times out at the call's deadline, naming the call
        let spinning = try validate(["ARGUMENT_VALUES", "VALUES_SPIN_ON_RANGE"], timeout: .seconds(2), sample: "7\n")
        XCTAssertEqual(failures(spinning), ["argument-values/counter"])
        XCTAssertEqual(spinning.tests.first { !$0.passed }?.details,
                       "timed out: did not finish within 2 s (while argument values of 'bump' for items 1-2)")
    }

    func testGivenAPluginThatCrashesOnANegativeArgumentWhenValidatedThenThatTestNamesTheSignalTheCommandAndAReproducerThatCrashesAgain() throws {
        let report = try validate(["CRASH_ON_NEGATIVE"])
        XCTAssertEqual(failures(report), ["commands/counter/bump/out-of-range-negative"])
        let failure = try XCTUnwrap(report.tests.first { !$0.passed })
        XCTAssertEqual(failure.details, "crashed (SIGSEGV) while apply 'bump'")
        XCTAssertEqual(failure.signal, "SIGSEGV")
        XCTAssertEqual(failure.command, "bump")
        let input = try XCTUnwrap(failure.inputs.first)
        XCTAssertEqual(try String(contentsOfFile: input, encoding: .utf8), #"["-1"]"#)
        let rerun = try runProgram("/bin/sh", ["-c", try XCTUnwrap(failure.rerun)], environment: temp.environment(["SWIFT_BACKTRACE": "enable=no"]))
        XCTAssertNotEqual(rerun.status, 0, "the reproducer crashes again")
        XCTAssertTrue(rerun.stdout.hasSuffix("step apply 'bump'\n"), rerun.stdout)
    }

    func testGivenAPluginThatSpinsRenderingOneCellWhenValidatedThenTheRenderTestTimesOutNamingTheStep() throws {
        // Given a render spinning at one cell wide; When validated with a 3 s deadline (renders included)
        let report = try validate(["SPIN_AT_1X1"], timeout: .seconds(3))
        // Then the 1x1 render tests (of the sample and of the generated one) and a generated call's render one cell wide
        // time out, naming the step
        XCTAssertEqual(failures(report), ["render/counter/1x1", "calls/counter/empty", "generated/counter/render/1x1"])
        XCTAssertEqual(report.tests.first { !$0.passed }?.details, "timed out: did not finish within 3 s (while render 1x1)")
        XCTAssertEqual(report.tests.last { !$0.passed }?.details, "timed out: did not finish within 3 s (while render 1x1)")
        let calls = try XCTUnwrap(report.tests.first { $0.name == "calls/counter/empty" }?.details)
        XCTAssertNotNil(calls.firstMatch(of: #/, render 1x\d+: timed out: did not finish within 3 s \(while render 1x\d+\)/#), calls)
    }

    func testGivenAnEditorTableSmallerThanTheABIWhenValidatedThenTheDescriptorTestFailsAndNothingElseRuns() throws {
        let report = try validate(["SMALL_EDITOR_TABLE"])
        XCTAssertEqual(report.tests.map(\.name), ["descriptor"])
        let details = try XCTUnwrap(report.tests.first?.details)
        XCTAssertTrue(details.hasPrefix("refused at load: an editor table is 16 bytes, ABI 1.2 needs "), details)
    }

    func testGivenAPluginThatAbortsWhileLoadingWhenValidatedThenTheDescriptorTestNamesTheSignalAndNothingElseRuns() throws {
        let report = try validate(["ABORT_AT_LOAD"])
        XCTAssertEqual(report.tests.map(\.name), ["descriptor"])
        XCTAssertEqual(report.tests.first?.details, "crashed (SIGABRT) while loading \(temp.path("libcounter.so").path)")
        XCTAssertEqual(report.tests.first?.signal, "SIGABRT")
    }

    func testGivenASerializerThatIsNoFixedPointWhenValidatedThenTheRoundTripTestFailsSayingWhere() throws {
        let report = try validate(["NO_ROUND_TRIP"])
        XCTAssertTrue(failures(report).contains("round-trip/counter"), "\(failures(report))")
        let roundTrip = try XCTUnwrap(report.tests.first { $0.name == "round-trip/counter" })
        XCTAssertEqual(roundTrip.details, "no round trip: serialize(open(serialize(x))) differs from serialize(x) at byte 0 (2 vs 2 bytes)")
        XCTAssertTrue(report.tests.filter { !$0.passed }.allSatisfy { $0.details.contains("no round trip") }, "every failure is the round trip")
    }

    func testGivenASerializeBufferWhoseReleaseFreesNothingWhenValidatedThenTheBuffersTestFailsNamingTheCall() throws {
        let report = try validate(["LEAK_SERIALIZE"])
        XCTAssertEqual(failures(report), ["buffers/counter"])
        let details = try XCTUnwrap(report.tests.first { !$0.passed }?.details)
        XCTAssertTrue(details.hasPrefix("serialize: the heap grew by "), details)
    }

    func testGivenARenderBufferReleasedTwiceWhenValidatedThenTheRenderTestsCrashWithSIGABRTInRender() throws {
        let report = try validate(["DOUBLE_FREE_RENDER"])
        let render = try XCTUnwrap(report.tests.first { $0.name == "render/counter/1x1" })
        XCTAssertEqual(render.details, "crashed (SIGABRT) while render 1x1")
        XCTAssertEqual(render.signal, "SIGABRT")
        XCTAssertTrue(report.tests.filter { !$0.passed }.allSatisfy { $0.signal == "SIGABRT" && $0.details.contains("while render") })
    }

    func testGivenAnErrorMessageThatIsNotUTF8WhenValidatedThenTheMissingArgumentsTestFailsNamingTheByte() throws {
        let report = try validate(["BAD_UTF8_MESSAGE"])
        XCTAssertEqual(failures(report), ["commands/counter/bump/missing"])
        XCTAssertEqual(report.tests.first { !$0.passed }?.details, "apply('bump')'s error message is not valid UTF-8 (byte 13 of 15)")
    }

    func testGivenAnExtensionLookupAnsweringEveryIDWhenValidatedThenTheExtensionsTestFailsNamingAnIDNoPluginCanKnow() throws {
        let report = try validate(["EXTENSION_FOR_ANY_ID"])
        // (the argument-values test then calls the diff function it answered, which answers OK to everything)
        XCTAssertEqual(failures(report), ["extensions/counter", "argument-values/counter"])
        XCTAssertEqual(report.tests.first { !$0.passed }?.details, "extension('folio.no-such-extension/1') answered a table for an id it cannot know")
        XCTAssertEqual(report.tests.last { !$0.passed }?.details, "argument values of an unknown command returned OK, expected UNKNOWN_COMMAND")
    }

    func testGivenAManifestDeclaringAnExtensionTheEditorDoesNotAnswerWhenValidatedThenTheExtensionsTestFailsNamingIt() throws {
        let library = try PluginFixtures.compilePlugin(Self.counterSource(), named: "libcounter.so", in: temp.url)
        try PluginFixtures.writeManifest(PluginManifest(id: "org.test.counter", name: "Counter", version: "1.0.0", abi: 1, library: "libcounter.so", editors: [
            EditorManifest(id: "counter", name: "Counter", contentTypes: [ContentType("org.test.counter")],
                           extensions: ["folio.semantic-diff/1", "folio.semantic-merge/1"]),
        ]), beside: library)
        let report = try PluginValidator(library: library, hostExecutable: PluginFixtures.buildFolder.appendingPathComponent("folio-plugin-host"),
                                         environment: temp.environment(), reproducers: temp.path("reproducers")).run()
        XCTAssertEqual(failures(report), ["extensions/counter"])
        XCTAssertEqual(report.tests.first { !$0.passed }?.details,
                       "the manifest declares extension 'folio.semantic-merge/1' but extension('folio.semantic-merge/1') answers NULL")
    }

    func testGivenARenderThatIsNotUTF8WhenValidatedThenBothRenderTestsFailNamingTheByte() throws {
        let report = try validate(["BAD_UTF8_RENDER"])
        XCTAssertEqual(report.tests.first { $0.name == "render/counter/1x1" }?.details, "render(1x1)'s text is not valid UTF-8 (byte 0 of 1)")
        XCTAssertEqual(report.tests.first { $0.name == "render/counter/500x200" }?.details, "render(500x200)'s text is not valid UTF-8 (byte 0 of 10)")
    }

    func testGivenTwoCommandsWithOneIDWhenValidatedThenTheDescriptorTestFailsNamingIt() throws {
        let report = try validate(["DUPLICATE_COMMAND"])
        XCTAssertEqual(report.tests.map(\.name), ["descriptor"])
        XCTAssertEqual(report.tests.first?.details, "editor 'counter': command 'bump' appears twice")
    }

    // MARK: Through the command line, and the bundled plugins

    func testGivenACrashingPluginWhenValidatedOnTheCommandLineThenItExitsOneWithTheTestTheInputAndJSONForEveryTest() throws {
        let library = try PluginFixtures.compilePlugin(Self.counterSource(["CRASH_ON_NEGATIVE"]), named: "libcounter.so", in: temp.url)
        let env = temp.environment(["TMPDIR": temp.url.path])
        let text = runFolio(["plugins", "validate", library.path], environment: env, cwd: temp.url)
        XCTAssertEqual(text.status, 1)
        XCTAssertTrue(text.stdout.contains("pass descriptor\n"), text.stdout)
        XCTAssertTrue(text.stdout.contains("FAIL commands/counter/bump/out-of-range-negative\n  crashed (SIGSEGV) while apply 'bump'\n  input: "), text.stdout)
        XCTAssertTrue(text.stdout.contains(" passed, 1 failed; reproducers in "), text.stdout)

        let json = runFolio(["plugins", "validate", library.path, "--json"], environment: env, cwd: temp.url)
        XCTAssertEqual(json.status, 1)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let tests = try XCTUnwrap(object["tests"] as? [[String: Any]])
        XCTAssertEqual(object["failed"] as? Int, 1)
        XCTAssertEqual(tests.count, (object["passed"] as? Int ?? -1) + 1)
        XCTAssertTrue(tests.allSatisfy { $0["name"] is String && ["pass", "fail"].contains($0["status"] as? String) && $0["details"] is String })
    }

    func testGivenTheBundledPluginsWithSampleDocumentsWhenValidatedThenEveryTestPasses() throws {
        let samples: [(String, String)] = [
            ("Checklist", #"{"title": "Groceries", "items": [{"title": "Milk", "checked": false}, {"title": "Eggs 日本語", "checked": true}]}"# + "\n"),
            ("Story", "# A Story\n\n## Act One\n\n### Opening\nIt begins.\n\n## Act Two\n\n### End\nIt ends.\n"),
            ("Shapes", #"{"shapes": [{"kind": "rect", "x": 1, "y": 2, "w": 3, "h": 4, "color": "red"}]}"# + "\n"),
            ("PlainText", "one\ntwo 日本語のテキストです\nthree\n"),
        ]
        for (name, sample) in samples {
            let file = try temp.write("sample-\(name)", sample)
            let library = PluginFixtures.buildFolder.appendingPathComponent("libFolio\(name).so")
            // 1,000 generated calls from the sample and from the empty document (with seed 1 they found Shapes quoting
            // an argument cut in the middle of a UTF-8 sequence in its error message). These are debug builds on a
            // shared machine: rendering a 1 MiB title takes them seconds (the release builds Folio ships take far
            // less), so the deadlines are raised here, as a user stepping through a debug build would.
            let result = runFolio(["plugins", "validate", library.path, "--document", file.path, "--seed", "1", "--calls", "1000",
                                   "--call-deadline", "30000", "--render-deadline", "30000"],
                                  environment: temp.environment(), cwd: temp.url)
            XCTAssertEqual(result.status, 0, "\(name): " + result.stdout.split(separator: "\n").filter { !$0.hasPrefix("pass") }.joined(separator: "\n"))
            XCTAssertTrue(result.stdout.hasSuffix(" failed\n") && result.stdout.contains(", 0 failed"), result.stdout)
        }
    }
}
