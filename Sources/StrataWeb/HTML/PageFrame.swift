/// The frame around every page: the document head with the stylesheet, a
/// header linking back to the model (and the migration preview when there
/// is one), and the page's body.
struct PageFrame {
    /// The site's name in the header: the store's file name.
    var siteName: String
    /// Whether the header links to a migration preview.
    var hasMigration: Bool

    /// A whole document.
    func render(title: String, links: SiteLinks, body: String) -> String {
        var header = HTML.link(links.model, siteName)
        if hasMigration { header += HTML.link(links.migration, "Migration preview") }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.escape(title)) — \(HTML.escape(siteName))</title>
            <link rel="stylesheet" href="\(HTML.escape(links.stylesheet))">
            </head>
            <body>
            <header>\(header)</header>
            <main>
            \(body)
            </main>
            </body>
            </html>

            """
    }
}
