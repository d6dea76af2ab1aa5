// swift-tools-version:6.0
import PackageDescription

/// libgit2 and the libraries it uses, linked into `folio` from their static archives (all in libgit2-dev's Debian
/// dependencies). Loading libgit2.so's chain of 13 shared libraries at every start cost more than Folio's own start-up
/// (figures: Benchmarks/README.md). The archives come from
/// the same Debian packages, so a libgit2 security update needs `folio` rebuilt, as Swift's own runtime already does.
/// `--wrap` routes libgit2's start of TLS and SSH (mbedTLS seeding and the CA bundle's parse; libssh2 and OpenSSL's
/// libcrypto) to CGitNetworkStart, which puts them off until the first remote operation (CPU saved by every command
/// that never connects), and makes opening a TLS stream or an SSH session start them first. GSSAPI has no archive: CGitNegotiate
/// loads libgssapi_krb5.so.2 when a server first asks for Negotiate, instead of its chain of 7 libraries at every start.
let staticGit = ["-Xlinker", "--wrap=git_mbedtls_stream_global_init", "-Xlinker", "--wrap=git_transport_ssh_global_init",
                 "-Xlinker", "--wrap=git_mbedtls_stream_new", "-Xlinker", "--wrap=git_mbedtls_stream_wrap", "-Xlinker", "--wrap=libssh2_session_init_ex",
                 "-Xlinker", "-Bstatic", "-Xlinker", "-lgit2", "-Xlinker", "-lmbedtls", "-Xlinker", "-lmbedx509", "-Xlinker", "-lmbedcrypto",
                 "-Xlinker", "-lhttp_parser", "-Xlinker", "-lssh2", "-Xlinker", "-lcrypto", "-Xlinker", "-lpcre2-8", "-Xlinker", "-lz",
                 "-Xlinker", "-Bdynamic"]
/// The rest of `folio`'s start-up and size (figures: Benchmarks/README.md). libstdc++ and libgcc's unwinder from
/// their archives: the Swift driver names `-lstdc++`, which finds Sources/folio/link/libstdc++.so first, a linker script
/// naming the archives (libgcc_s is then not needed). No symbol exported (`-export-dynamic` comes with
/// `-static-stdlib` for plugins loaded into the process; Folio loads none). Relative relocations packed (DT_RELR,
/// glibc 2.36): 1.5 MB of `.rela.dyn` becomes 15 KB.
let leanFolio = ["-L" + Context.packageDirectory + "/Sources/folio/link", "-Xlinker", "--no-export-dynamic",
                 "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]
/// Modules compiled for size in release builds: the launcher, plugins, templates and sharing, where no measured
/// figure moved (Benchmarks/README.md); the history, document, git and output paths stay at -O.
let forSize: [SwiftSetting] = [.unsafeFlags(["-Osize"], .when(configuration: .release))]
/// libgit2 as Debian's shared library, for everything else that uses FolioGit; mbedTLS's X.509 library (libgit2's own
/// TLS library, already loaded with it) for the check of a server's certificate against the user's CA file.
let dynamicGit: [LinkerSetting] = [.linkedLibrary("git2"), .linkedLibrary("mbedx509"), .linkedLibrary("mbedcrypto")]
/// The modules of the plugin host and of the bundled Swift plugins do not import _Concurrency and _StringProcessing,
/// which every Swift module imports unless told not to: then the host and the plugins do not name (and load at every
/// host start) libswift_Concurrency with libdispatch and libBlocksRuntime, libswift_StringProcessing and
/// libswift_RegexParser, a fifth of a host's start (Benchmarks/README.md). A module here that needs one imports it.
let withoutConcurrency = ["-Xfrontend", "-disable-implicit-concurrency-module-import"]
let plainSwift: [SwiftSetting] = [.unsafeFlags(withoutConcurrency + ["-Xfrontend", "-disable-implicit-string-processing-module-import"])]

let package = Package(
    name: "Folio",
    products: [
        .executable(name: "folio", targets: ["folio"]),
        .executable(name: "folio-plugin-host", targets: ["folio-plugin-host"]),
        .executable(name: "folio-bench", targets: ["FolioBench"]),
        .library(name: "FolioCore", targets: ["FolioCore"]),
        // The plugin SDK: a Swift plugin package depends on FolioPluginKit (docs/PLUGINS.md); FolioPluginABI is the C header.
        .library(name: "FolioPluginKit", targets: ["FolioPluginKit"]),
        .library(name: "FolioPluginABI", targets: ["FolioPluginABI"]),
        // Bundled editor plugins: shared objects loaded at run time through the C ABI.
        .library(name: "FolioChecklist", type: .dynamic, targets: ["ChecklistPlugin"]),
        .library(name: "FolioStory", type: .dynamic, targets: ["StoryPlugin"]),
        .library(name: "FolioShapes", type: .dynamic, targets: ["ShapesPlugin"]),
        .library(name: "FolioPlainText", type: .dynamic, targets: ["PlainTextPlugin"]),
    ],
    targets: [
        // C libraries from Debian packages.
        // libgit2 (Debian's libgit2-dev) is not linked by the module: `folio` links it statically (see `staticGit`), the
        // benchmark, the test writer and the test bundle dynamically (`dynamicGit`).
        .systemLibrary(name: "CGit2"),
        .systemLibrary(name: "CUtf8proc", providers: [.apt(["libutf8proc-dev"])]),  // headers in /usr/include; its .pc adds a -D SwiftPM refuses
        // libyaml (Debian's libyaml-dev): copier's copier.yml and answers files, read as PyYAML's SafeLoader reads them.
        .systemLibrary(name: "CYaml", providers: [.apt(["libyaml-dev"])]),

        // Libraries.
        // libgit2's TLS and SSH start, put off from its start-up to the first remote operation (only in `folio`, see staticGit).
        .target(name: "CGitNetworkStart"),
        // libgit2's GSSAPI calls, loading libgssapi_krb5.so.2 on first use (only in `folio`, see staticGit).
        .target(name: "CGitNegotiate", linkerSettings: [.linkedLibrary("dl")]),
        // What Folio took from Foundation's ICU layer, written small (timestamps, trimming, number text, threads).
        .target(name: "FolioBasics", dependencies: ["CUtf8proc"]),
        .target(name: "FolioGit", dependencies: ["CGit2", "CGitNetworkStart", "FolioBasics"]),
        .target(name: "FolioCore", dependencies: ["FolioGit", "FolioBasics"]),
        .target(name: "FolioMustache", dependencies: ["FolioBasics"]),
        // Jinja2's template language, rendered as Jinja2 3.1 renders it (docs/ARCHITECTURE.md).
        .target(name: "FolioJinja", dependencies: ["CUtf8proc"]),
        .target(name: "FolioTemplates", dependencies: ["FolioCore", "FolioGit", "FolioMustache", "FolioJinja", "FolioBasics", "CYaml"], swiftSettings: forSize),
        .target(name: "FolioPluginABI"),
        // The text helpers for C plugins (folio_text.h: UTF-8, display widths, the argument array, a line builder).
        .target(name: "FolioPluginText", dependencies: ["FolioPluginABI", "CUtf8proc"], linkerSettings: [.linkedLibrary("utf8proc")]),  // C: no autolink
        // Display widths (utf8proc): one function for the host's screens, its clipping of plugin lines and plugins' layout.
        .target(name: "FolioDisplayWidth", dependencies: ["CUtf8proc"], swiftSettings: plainSwift),
        // The Swift toolchain a module was compiled with, recorded in an ELF section of every Swift plugin (through
        // FolioPluginKit); FolioPluginRuntime reads it and runs a plugin on Folio's own Swift runtime (Glibc only).
        .target(name: "FolioSwiftToolchain", swiftSettings: plainSwift),
        .target(name: "FolioPluginRuntime", dependencies: ["FolioSwiftToolchain"], swiftSettings: plainSwift),
        // The Swift plugin SDK, in plain Swift (no Foundation: the Swift runtime Folio ships for plugins has none).
        .target(name: "FolioPluginKit", dependencies: ["FolioPluginABI", "FolioDisplayWidth", "FolioSwiftToolchain", "FolioPluginWire", "FolioAlgorithms"], swiftSettings: plainSwift),
        // The plugin host process's side of the boundary: Glibc and the ABI header only (no Foundation, no libgit2), so
        // that a host starts as fast as the plugin it loads allows.
        .target(name: "FolioPluginHost", dependencies: ["FolioPluginABI", "FolioPluginRuntime", "FolioPluginWire", "FolioConfinement"], swiftSettings: plainSwift),
        // The kernel's confinement of a process that runs untrusted code (the plugin host; template hooks): Landlock by
        // raw system calls, seccomp-bpf through Debian's libseccomp (libseccomp-dev), no-new-privs, its own session.
        .target(name: "CConfinement", linkerSettings: [.linkedLibrary("seccomp")]),
        .target(name: "FolioConfinement", dependencies: ["CConfinement"], swiftSettings: plainSwift),
        // The wire format between Folio and its plugin hosts (header, version, message kinds, descriptors), imported by
        // both sides, so that Folio does not depend on the host's code.
        .target(name: "FolioPluginWire", swiftSettings: plainSwift),
        // Algorithms Folio and the plugin SDK both use (the longest increasing run of item matching), in plain Swift.
        .target(name: "FolioAlgorithms", swiftSettings: plainSwift),
        .target(name: "FolioPlugins", dependencies: ["FolioCore", "FolioPluginABI", "FolioPluginWire", "FolioPluginRuntime", "FolioSwiftToolchain", "FolioDisplayWidth", "FolioAlgorithms", "FolioBasics", "FolioGit"], swiftSettings: forSize),
        // The crash handler's backtrace through the unwinder linked in (libgcc_s is not loaded at every start for it).
        .target(name: "CBacktrace"),
        .target(name: "FolioTerminal", dependencies: ["CUtf8proc", "FolioDisplayWidth", "FolioBasics", "CBacktrace"]),
        // The launcher sees documents, templates and editors only through the protocols in LaunchServices.swift; FolioCLI
        // adapts FolioTemplates' resolver and FolioPlugins to them (FolioTemplates is imported for its variable checks).
        .target(name: "FolioLaunch", dependencies: ["FolioCore", "FolioTemplates", "FolioTerminal", "FolioPluginWire", "FolioAlgorithms", "FolioBasics"], swiftSettings: forSize),
        .target(name: "FolioSync", dependencies: ["FolioCore", "FolioGit", "FolioTemplates", "FolioPlugins", "FolioBasics", "FolioDisplayWidth", "FolioJinja"], swiftSettings: forSize),
        .target(name: "FolioCLI", dependencies: [
            "FolioBasics", "FolioCore", "FolioGit", "FolioMustache", "FolioTemplates", "FolioPlugins", "FolioTerminal", "FolioLaunch", "FolioSync",
        ], swiftSettings: forSize),
        // The Swift runtime and FoundationEssentials linked statically (faster start: Benchmarks/README.md). Sound because no plugin code runs in this process: plugins run in
        // `folio-plugin-host`, which stays dynamic and shares one runtime with them. Folio's modules import
        // FoundationEssentials, never Foundation: Foundation's archive pulls in CoreFoundation and ICU with its 34 MB of
        // data. FoundationEssentials' own static dependencies are named because the modules are compiled against the
        // dynamic SDK; lld resolves them in any order. No test target depends on this target (its flags would reach the
        // test bundle's link).
        .executableTarget(name: "folio", dependencies: ["FolioCLI", "CGitNegotiate"], exclude: ["link"],
                          linkerSettings: [.unsafeFlags(["-static-stdlib", "-use-ld=lld", "-l_FoundationCShims", "-l_FoundationCollections", "-lswiftSynchronization"] + staticGit + leanFolio)]),
        // Installed beside `folio` (or in ../libexec/folio/); Folio starts one per plugin to run its code.
        .executableTarget(name: "folio-plugin-host", dependencies: ["FolioPluginHost"], swiftSettings: plainSwift),

        // Bundled editor plugins (Swift through FolioPluginKit, C directly against the header).
        .target(name: "ChecklistPlugin", dependencies: ["FolioPluginKit"], path: "Plugins/Checklist", swiftSettings: plainSwift),
        .target(name: "StoryPlugin", dependencies: ["FolioPluginKit"], path: "Plugins/Story", swiftSettings: plainSwift),
        .target(name: "PlainTextPlugin", dependencies: ["FolioPluginKit"], path: "Plugins/PlainText", swiftSettings: [.unsafeFlags(withoutConcurrency)]),
        .target(name: "ShapesPlugin", dependencies: ["FolioPluginABI", "FolioPluginText"], path: "Plugins/Shapes"),

        // Benchmarks: `swift run -c release folio-bench SUITE [--json]`.
        .executableTarget(name: "FolioBench", dependencies: ["FolioCLI", "FolioGit", "FolioCore", "FolioTemplates", "FolioJinja", "FolioReplicaModel", "CGit2"], path: "Benchmarks/folio-bench", linkerSettings: dynamicGit),

        // Tests.
        // Temporary folders, processes, tmux, loopback servers: no Folio module beyond FolioCore.
        .target(name: "FolioTestSupport", dependencies: ["FolioCore"], path: "Tests/FolioTestSupport", linkerSettings: dynamicGit),
        // `runFolio` (the command line in-process) for the test targets that drive `folio`; re-exports FolioTestSupport.
        .target(name: "FolioCLITestSupport", dependencies: ["FolioCLI", "FolioTestSupport"], path: "Tests/FolioCLITestSupport"),
        // Issue 32's replica model (random edits and syncs on several clones, every merge checked against a reference model):
        // run by FolioSyncTests and, longer, by `folio-bench model`; no XCTest, so the benchmark can link it.
        .target(name: "FolioReplicaModel", dependencies: ["FolioSync", "FolioPlugins", "FolioCore", "FolioGit"], path: "Tests/FolioReplicaModel"),
        // A writer process for the concurrency and crash tests: N changes to a document, one "ack N" line each.
        .executableTarget(name: "folio-test-writer", dependencies: ["FolioCore"], path: "Tests/FolioTestWriter", linkerSettings: dynamicGit),
        .executableTarget(name: "folio-test-trap", dependencies: ["FolioTerminal"], path: "Tests/FolioTestTrap"),  // crashes on purpose
        .testTarget(name: "FolioBasicsTests", dependencies: ["FolioBasics"]),
        .testTarget(name: "FolioGitTests", dependencies: ["FolioGit", "FolioTestSupport"]),
        .testTarget(name: "FolioCoreTests", dependencies: ["FolioCore", "FolioTestSupport", "folio-test-writer", "FolioGit"]),
        .testTarget(name: "FolioMustacheTests", dependencies: ["FolioMustache", "FolioTestSupport"]),
        .testTarget(name: "FolioJinjaTests", dependencies: ["FolioJinja"], exclude: ["KnownFailures.txt", "Fixtures"]),
        .testTarget(name: "FolioTemplatesTests", dependencies: ["FolioTemplates", "FolioCLITestSupport", "FolioCore", "FolioGit", "FolioJinja", "FolioMustache", "FolioTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "FolioPluginsTests", dependencies: ["FolioPlugins", "FolioConfinement", "FolioPluginText", "FolioPluginKit", "FolioPluginRuntime", "FolioSwiftToolchain", "FolioCLITestSupport", "folio-plugin-host", "FolioCLI", "FolioCore", "FolioDisplayWidth", "FolioGit", "FolioLaunch", "FolioPluginABI", "FolioPluginWire", "FolioTemplates", "FolioTestSupport"]),
        .testTarget(name: "FolioTerminalTests", dependencies: ["FolioTerminal"]),
        .testTarget(name: "FolioLaunchTests", dependencies: ["FolioLaunch", "FolioTerminal", "FolioTemplates", "FolioBasics", "FolioCore"]),
        .testTarget(name: "FolioSyncTests", dependencies: ["FolioSync", "FolioCLITestSupport", "FolioReplicaModel", "folio-plugin-host", "FolioCore", "FolioGit", "FolioPlugins", "FolioTemplates", "FolioTestSupport"]),
        .testTarget(name: "FolioCLITests", dependencies: ["FolioCLI", "folio-plugin-host", "folio-test-trap", "FolioCLITestSupport", "FolioCore", "FolioGit", "FolioLaunch", "FolioPlugins", "FolioSync", "FolioTemplates", "FolioTerminal", "FolioTestSupport"]),
    ]
)
