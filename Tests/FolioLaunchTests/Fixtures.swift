import Foundation
import FolioCore
@testable import FolioLaunch

enum Fixtures {
    static let story = TemplateSummary(id: "stories/short-story", name: "Short Story", group: "stories", contentType: "org.folio.story",
                                       summary: "A short story with a title page, three acts and notes for the editor.",
                                       variables: [TemplateVariable(name: "title", prompt: "Title", defaultValue: "Untitled", required: true),
                                                   TemplateVariable(name: "tone", prompt: "Tone", choices: ["light", "dark", "wry"]),
                                                   TemplateVariable(name: "year", prompt: "Year", pattern: "[0-9]{4}")],
                                       files: ["story.md", "notes/characters.md", "folio.json"])
    static let novel = TemplateSummary(id: "stories/novel", name: "Novel", group: "stories", contentType: "org.folio.story", summary: "Chapters and an outline.")
    static let groceries = TemplateSummary(id: "lists/groceries", name: "Groceries", group: "checklists", contentType: "org.folio.checklist",
                                           summary: "Aisles in shop order.", files: ["list.checklist"])

    static let loading = [TemplateSourceStatus(name: "folio-templates", state: .loading),
                          TemplateSourceStatus(name: "team", state: .loading)]
    static let loaded = [TemplateSourceStatus(name: "folio-templates", state: .loaded([story, novel, groceries])),
                         TemplateSourceStatus(name: "team", state: .failed("git fetch failed: could not resolve host example.com"))]

    static let recent = [RecentDocument(path: "notes/groceries.checklist", detail: "checklist"),
                         RecentDocument(path: "stories/the-lighthouse", title: "The Lighthouse", detail: "story")]
}

struct FakeEditor: EditorViewProvider {
    let lines = ["# The Lighthouse", "", "The keeper climbed the stairs at dusk,", "counting each step as she went.", "", "— Act I —"]
    func render(_ request: RenderRequest) -> PluginView { .lines(Array(lines.prefix(request.height))) }
    func commands() -> [EditorCommand] {
        [EditorCommand(id: "story.bold", title: "Bold", shortcut: "^B", needsSelection: true),
         EditorCommand(id: "story.act", title: "New Act", shortcut: "a"),
         EditorCommand(id: "story.note", title: "Note", shortcut: "n", needsSelection: true)]
    }
}
