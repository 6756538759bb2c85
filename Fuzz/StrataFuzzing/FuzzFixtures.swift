#if DEBUG
    @testable import Strata

    /// The Diary schemas (a copy of `Schemas/Diary`), built in so that a
    /// target reads no files.
    enum FuzzFixtures {
        /// Diary version 1.
        static let diary1: Model? = try? SchemaDecoder().decode(
            #"""
            {
              "format": "strata-schema/1",
              "model": "Diary",
              "version": 1,
              "versionIdentifier": "1.0",
              "entities": {
                "DiaryEntry": {
                  "attributes": {
                    "creationTime": { "type": "date", "default": "now", "indexed": true },
                    "updateTime":   { "type": "date", "default": "now", "touch": "save" },
                    "text":         { "type": "string", "optional": true, "maxLength": 20000,
                                      "importKeys": ["Body", "text"] },
                    "icon":         { "type": "binary", "optional": true, "media": true }
                  },
                  "relationships": {
                    "media": { "destination": "Medium", "inverse": "diaryEntry", "toMany": true,
                               "optional": true, "deleteRule": "cascade" }
                  }
                },
                "Medium": {
                  "attributes": {
                    "type": { "type": "string", "pattern": "^(image|sound)$" },
                    "data": { "type": "binary", "media": true, "externalStorage": true }
                  },
                  "relationships": {
                    "diaryEntry": { "destination": "DiaryEntry", "inverse": "media", "deleteRule": "nullify" }
                  }
                }
              }
            }
            """#, file: "Diary/1.json")

        /// Diary version 2.
        static let diary2: Model? = try? SchemaDecoder().decode(
            #"""
            {
              "format": "strata-schema/1",
              "model": "Diary",
              "version": 2,
              "versionIdentifier": "2.0",
              "entities": {
                "DiaryEntry": {
                  "attributes": {
                    "creationTime": { "type": "date", "default": "now", "indexed": true },
                    "updateTime":   { "type": "date", "default": "now", "touch": "save" },
                    "title":        { "type": "string", "maxLength": 120 },
                    "text":         { "type": "string", "optional": true, "maxLength": 20000,
                                      "importKeys": ["Body", "text"] },
                    "icon":         { "type": "binary", "optional": true, "media": true }
                  },
                  "relationships": {
                    "media": { "destination": "Medium", "inverse": "diaryEntry", "toMany": true,
                               "optional": true, "deleteRule": "cascade" },
                    "tags":  { "destination": "Tag", "inverse": "entries", "toMany": true,
                               "optional": true, "deleteRule": "nullify" }
                  }
                },
                "Medium": {
                  "attributes": {
                    "type": { "type": "string", "pattern": "^(image|sound)$" },
                    "data": { "type": "binary", "media": true, "externalStorage": true }
                  },
                  "relationships": {
                    "diaryEntry": { "destination": "DiaryEntry", "inverse": "media", "deleteRule": "nullify" }
                  }
                },
                "Tag": {
                  "uniquenessConstraints": [["name"]],
                  "attributes": {
                    "name": { "type": "string", "minLength": 1, "maxLength": 100 }
                  },
                  "relationships": {
                    "entries": { "destination": "DiaryEntry", "inverse": "tags", "toMany": true,
                                 "optional": true, "deleteRule": "nullify" }
                  }
                }
              }
            }
            """#, file: "Diary/2.json")

        /// Diary version 3.
        static let diary3: Model? = try? SchemaDecoder().decode(
            #"""
            {
              "format": "strata-schema/1",
              "model": "Diary",
              "version": 3,
              "versionIdentifier": "3.0",
              "entities": {
                "DiaryEntry": {
                  "attributes": {
                    "creationTime": { "type": "date", "default": "now", "indexed": true },
                    "updateTime":   { "type": "date", "default": "now", "touch": "save" },
                    "title":        { "type": "string", "maxLength": 120 },
                    "subtitle":     { "type": "string", "optional": true, "maxLength": 120 },
                    "body":         { "type": "string", "optional": true, "maxLength": 20000,
                                      "renamedFrom": "text", "importKeys": ["Body", "text"] },
                    "wordCount":    { "type": "integer32", "default": 0, "minValue": 0 },
                    "icon":         { "type": "binary", "optional": true, "media": true }
                  },
                  "relationships": {
                    "media": { "destination": "Medium", "inverse": "diaryEntry", "toMany": true,
                               "optional": true, "deleteRule": "cascade" },
                    "tags":  { "destination": "Tag", "inverse": "entries", "toMany": true,
                               "optional": true, "deleteRule": "nullify" }
                  }
                },
                "Medium": {
                  "attributes": {
                    "type": { "type": "string", "pattern": "^(image|sound)$" },
                    "data": { "type": "binary", "media": true, "externalStorage": true }
                  },
                  "relationships": {
                    "diaryEntry": { "destination": "DiaryEntry", "inverse": "media", "deleteRule": "nullify" }
                  }
                },
                "Tag": {
                  "uniquenessConstraints": [["name"]],
                  "attributes": {
                    "name": { "type": "string", "minLength": 1, "maxLength": 100 }
                  },
                  "relationships": {
                    "entries": { "destination": "DiaryEntry", "inverse": "tags", "toMany": true,
                                 "optional": true, "deleteRule": "nullify" }
                  }
                }
              }
            }
            """#, file: "Diary/3.json")
    }
#endif
