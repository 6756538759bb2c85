/// The view's one stylesheet, served as `/style.css` and written beside a
/// static export: pages carry no inline style or script, which the
/// Content-Security-Policy would refuse anyway.
enum Stylesheet {
    /// The CSS text.
    static let text = """
        :root { color-scheme: light dark; --line: #8884; --muted: #777; --accent: #2a6fdb; }
        body { font: 15px/1.45 system-ui, sans-serif; margin: 0; }
        header { padding: .6em 1.2em; border-bottom: 1px solid var(--line); }
        header a { margin-right: 1em; }
        main { padding: 1em 1.2em; max-width: 80em; }
        a { color: var(--accent); text-decoration: none; }
        a:hover { text-decoration: underline; }
        h1 { font-size: 1.5em; margin: .2em 0 .6em; }
        h2 { font-size: 1.15em; margin: 1.4em 0 .5em; }
        table { border-collapse: collapse; margin: .4em 0; }
        th, td { border-bottom: 1px solid var(--line); padding: .25em .7em .25em 0;
                 text-align: left; vertical-align: top; }
        th { font-weight: 600; white-space: nowrap; }
        td.text { white-space: pre-wrap; max-width: 40em; overflow-wrap: anywhere; }
        table.objects td { white-space: nowrap; max-width: 22em; overflow: hidden;
                           text-overflow: ellipsis; }
        .muted, .type { color: var(--muted); }
        .type { font-size: .85em; }
        .null { color: var(--muted); font-style: italic; }
        pre { background: #8881; padding: .6em; overflow: auto; }
        pre.error { border-left: 3px solid #d33; }
        form.where input[type=text] { width: 36em; max-width: 90%; font: inherit;
                                      font-family: ui-monospace, monospace; }
        nav.pages a, nav.pages span { margin-right: 1em; }
        img.media { max-width: 100%; max-height: 32em; min-width: 6em; display: block;
                    image-rendering: pixelated; }
        img.thumb { height: 4em; min-width: 4em; vertical-align: middle; margin: .2em .5em;
                    image-rendering: pixelated; border: 1px solid var(--line); }
        figure { margin: .4em 0; }
        .diagram svg { max-width: 100%; height: auto; }
        .blocking { color: #d33; }
        """
}
