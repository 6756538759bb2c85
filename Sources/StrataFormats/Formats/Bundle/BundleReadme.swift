import StrataCore
import StrataSchema

/// The `README.txt` inside every bundle: what the files are, in plain
/// words, for someone who has the zip and not Strata.
enum BundleReadme {
    /// The text for a bundle of `model`.
    package static func text(model: Model) -> String {
        let entities = model.entities.filter { !$0.isAbstract }.map(\.name).sorted()
        return """
            This is a Strata bundle (strata-bundle/1): the complete contents of a \(model.name) \
            store, schema version \(model.version), in open formats that need no special \
            software to read.

            What the files are
            ------------------
            manifest.json   The table of contents: the model's name and version, the number \
            of objects of each kind, and every other file of this zip with its size in bytes \
            and its SHA-256 checksum (to check that nothing was damaged).
            schema.json     The exact description of the data: each kind of object \
            ("entity"), its fields ("attributes") with their types, and how objects refer to \
            each other ("relationships").
            data/<Entity>.jsonl
                            The objects, one text file per kind (\(entities.joined(separator: ", "))). \
            Each line is one object written as JSON (https://www.json.org), in UTF-8.
            media/<sha256>.<ext>
                            Photos, sound recordings and other files attached to objects, each \
            named by the SHA-256 checksum of its bytes and an extension telling its type \
            (jpg, png, heic, m4a, mp4, wav, pdf, ...; bin when unknown). The same file \
            attached twice is stored once.

            How to read an object line
            --------------------------
            "_id" names the object: "<Entity>/p<number>". Every other key is a field of the \
            object, by the name schema.json gives it; a field that is missing has no value. \
            Text is text; numbers are numbers; true/false are yes/no values; dates are \
            written as ISO 8601 text in UTC (2024-05-01T08:30:00Z, with a fraction of a \
            second when there is one), or, when a date has no such form, as a number of \
            seconds since 2001-01-01T00:00:00Z; UUIDs are text. A field holding a file \
            gives the file's path in this zip ("media/<sha256>.jpg"); other binary fields \
            hold their bytes in base64. A relationship holds the "_id" of the related \
            object, or a list of them (in their stored order when the order matters).

            Checking the files
            ------------------
            On any system: sha256sum <file> (Linux), shasum -a 256 <file> (macOS) or \
            certutil -hashfile <file> SHA256 (Windows) prints the checksum to compare with \
            manifest.json.

            Strata reads the bundle back into a store with `strata unarchive <zip> <store>`, \
            at this schema version or, through its migrations, any later one.

            """
    }
}
