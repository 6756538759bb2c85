/// The links between the pages of a list: each step a link where there is
/// a page to go to, a muted label where there is none, in a `<nav>`.
enum PageNavigation {
    /// One step: its text, and the address it leads to (nil: nowhere, shown
    /// muted).
    typealias Step = (text: String, link: String?)

    /// `steps` in a navigation bar.
    static func render(_ steps: [Step], between: String? = nil) -> String {
        var parts = steps.map { step in
            step.link.map { HTML.link($0, step.text) }
                ?? "<span class=\"muted\">\(HTML.escape(step.text))</span>"
        }
        if let between { parts.insert("<span>\(HTML.escape(between))</span>", at: parts.count / 2) }
        return "<nav class=\"pages\">\(parts.joined(separator: " "))</nav>"
    }

    /// Numbered pages: "← Previous", "Page n of m", "Next →"; `link` gives
    /// the address of a page (from 1).
    static func numbered(page: Int, of pages: Int, link: (Int) -> String) -> String {
        render(
            [
                ("← Previous", page > 1 ? link(page - 1) : nil),
                ("Next →", page < pages ? link(page + 1) : nil),
            ], between: "Page \(page) of \(pages)")
    }
}
