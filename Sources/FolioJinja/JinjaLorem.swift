/// `lipsum(n=5, html=True, min=20, max=100)`: random lorem ipsum paragraphs made as Jinja2's `generate_lorem_ipsum`
/// makes them (a comma every 3–8 words, a full stop every 10–20, capitals after it, no word twice in a row), from
/// Jinja2's word list (written out by Tests/FolioJinjaTests/Fixtures/extensions/lorem.py).
enum JinjaLorem {
    static let words: [String] = [
        "a", "ac", "accumsan", "ad", "adipiscing", "aenean", "aliquam", "aliquet", "amet", "ante", "aptent", "arcu",
        "at", "auctor", "augue", "bibendum", "blandit", "class", "commodo", "condimentum", "congue", "consectetuer",
        "consequat", "conubia", "convallis", "cras", "cubilia", "cum", "curabitur", "curae", "cursus", "dapibus",
        "diam", "dictum", "dictumst", "dignissim", "dis", "dolor", "donec", "dui", "duis", "egestas", "eget",
        "eleifend", "elementum", "elit", "enim", "erat", "eros", "est", "et", "etiam", "eu", "euismod", "facilisi",
        "facilisis", "fames", "faucibus", "felis", "fermentum", "feugiat", "fringilla", "fusce", "gravida",
        "habitant", "habitasse", "hac", "hendrerit", "hymenaeos", "iaculis", "id", "imperdiet", "in", "inceptos",
        "integer", "interdum", "ipsum", "justo", "lacinia", "lacus", "laoreet", "lectus", "leo", "libero", "ligula",
        "litora", "lobortis", "lorem", "luctus", "maecenas", "magna", "magnis", "malesuada", "massa", "mattis",
        "mauris", "metus", "mi", "molestie", "mollis", "montes", "morbi", "mus", "nam", "nascetur", "natoque", "nec",
        "neque", "netus", "nibh", "nisi", "nisl", "non", "nonummy", "nostra", "nulla", "nullam", "nunc", "odio",
        "orci", "ornare", "parturient", "pede", "pellentesque", "penatibus", "per", "pharetra", "phasellus",
        "placerat", "platea", "porta", "porttitor", "posuere", "potenti", "praesent", "pretium", "primis", "proin",
        "pulvinar", "purus", "quam", "quis", "quisque", "rhoncus", "ridiculus", "risus", "rutrum", "sagittis",
        "sapien", "scelerisque", "sed", "sem", "semper", "senectus", "sit", "sociis", "sociosqu", "sodales",
        "sollicitudin", "suscipit", "suspendisse", "taciti", "tellus", "tempor", "tempus", "tincidunt", "torquent",
        "tortor", "tristique", "turpis", "ullamcorper", "ultrices", "ultricies", "urna", "ut", "varius", "vehicula",
        "vel", "velit", "venenatis", "vestibulum", "vitae", "vivamus", "viverra", "volutpat", "vulputate",
    ]

    static func paragraphs(count: Int, html: Bool, min: Int, max: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        var result: [String] = []
        for _ in 0..<Swift.max(0, count) {
            var nextCapitalized = true, lastComma = 0, lastFullStop = 0
            var last: String?
            var paragraph: [String] = []
            let length = max > min ? Int.random(in: min..<max, using: &generator) : 0
            for index in 0..<length {
                var word = words[Int.random(in: 0..<words.count, using: &generator)]
                while word == last { word = words[Int.random(in: 0..<words.count, using: &generator)] }
                last = word
                if nextCapitalized {
                    word = word.prefix(1).uppercased() + word.dropFirst()
                    nextCapitalized = false
                }
                if index - Int.random(in: 3..<8, using: &generator) > lastComma {
                    lastComma = index
                    lastFullStop += 2
                    word += ","
                }
                if index - Int.random(in: 10..<20, using: &generator) > lastFullStop {
                    lastComma = index
                    lastFullStop = index
                    word += "."
                    nextCapitalized = true
                }
                paragraph.append(word)
            }
            var text = paragraph.joined(separator: " ")
            if text.hasSuffix(",") { text = text.dropLast() + "." } else if !text.hasSuffix(".") { text += "." }
            result.append(text)
        }
        return html ? result.map { "<p>\(JinjaRenderer.escapeHTML($0))</p>" }.joined(separator: "\n") : result.joined(separator: "\n\n")
    }
}
