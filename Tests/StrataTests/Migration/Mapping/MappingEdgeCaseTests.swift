import Foundation
import Testing

@testable import Strata
@testable import StrataContext

/// Mapping cases at the edges of the format, each run through the real
/// executor (``Migrator`` on a store at version 1, a copy stage with the
/// mapping file) and read back whole: one-to-one and ordered links here;
/// inheritance, dropped objects and failures in the extensions.
struct MappingEdgeCaseTests {
    // MARK: - One-to-one

    static let offices1 = #"""
        {
          "Person": {
            "attributes": {
              "name": { "type": "string" },
              "code": { "type": "string", "optional": true }
            },
            "relationships": {
              "desk": { "destination": "Desk", "inverse": "occupant", "optional": true },
              "nextDesk": { "destination": "Desk", "inverse": "nextOccupant", "optional": true }
            }
          },
          "Desk": {
            "attributes": { "label": { "type": "string" } },
            "relationships": {
              "occupant": { "destination": "Person", "inverse": "desk", "optional": true },
              "nextOccupant": { "destination": "Person", "inverse": "nextDesk", "optional": true }
            }
          }
        }
        """#
    static let offices2 = #"""
        {
          "Person": {
            "attributes": { "name": { "type": "string" } },
            "relationships": {
              "desk": { "destination": "Desk", "inverse": "occupant", "optional": true },
              "badge": { "destination": "Badge", "inverse": "holder", "optional": true }
            }
          },
          "Desk": {
            "attributes": { "label": { "type": "string" } },
            "relationships": {
              "occupant": { "destination": "Person", "inverse": "desk", "optional": true }
            }
          },
          "Badge": {
            "uniquenessConstraints": [["code"]],
            "attributes": { "code": { "type": "string" } },
            "relationships": {
              "holder": { "destination": "Person", "inverse": "badge", "optional": true }
            }
          }
        }
        """#

    /// Everyone moves to their next desk, taking it from its current
    /// occupant, and gets a badge by code; two people with one code share
    /// no badge: the later one (by primary key) holds it.
    @Test func testOneToOneRemapAndFindOrCreateKeepBothSidesInAgreement() throws {
        let chain = try MappingEdgeCaseChain(
            "Offices", v1: Self.offices1, v2: Self.offices2,
            mapping: #"""
                "entities": { "Person": { "relationships": {
                  "desk": { "from": "nextDesk" },
                  "badge": { "findOrCreateBy": "code", "value": "upper(trim(code))" } } } },
                "discard": ["Desk.nextOccupant"]
                """#)
        try chain.makeStore { context in
            var desks: [ManagedObject] = []
            for label in ["D1", "D2", "D3", "D4"] {
                let desk = try context.insert("Desk")
                try desk.set("label", label)
                desks.append(desk)
            }
            // name, desk, next desk, code
            let people: [(String, Int?, Int?, String?)] = [
                ("Ada", 0, 1, "a1"), ("Bob", 1, 2, " B2 "), ("Cy", 2, 0, nil),
                ("Dee", 3, nil, "A1"), ("Eve", nil, 3, "e5"),
            ]
            for (name, desk, next, code) in people {
                let person = try context.insert("Person")
                try person.set("name", name)
                try person.set("code", code)
                try person.setObject(desk.map { desks[$0] }, forKey: "desk")
                try person.setObject(next.map { desks[$0] }, forKey: "nextDesk")
            }
        }

        try chain.migrate()

        let context = try chain.open()
        let people = try context.all("Person")
        #expect(try people.map { try $0.string("name") } == ["Ada", "Bob", "Cy", "Dee", "Eve"])
        #expect(
            try people.map { try $0.object(forKey: "desk")?.string("label") } == [
                "D2", "D3", "D1", nil, "D4",
            ])
        #expect(
            try context.all("Desk").map { try $0.object(forKey: "occupant")?.string("name") } == [
                "Cy", "Ada", "Bob", "Eve",
            ])
        #expect(
            try people.map { try $0.object(forKey: "badge")?.string("code") } == [
                nil, "B2", nil, "A1", "E5",
            ])
        let badges = try context.all("Badge")
        #expect(try badges.map { try $0.string("code") } == ["A1", "B2", "E5"])
        #expect(
            try badges.map { try $0.object(forKey: "holder")?.string("name") } == [
                "Dee", "Bob", "Eve",
            ])
        // Both keys of every pair, straight from the tables.
        #expect(
            try chain.rows(
                context,
                "SELECT p.ZNAME, d.ZLABEL, d.ZOCCUPANT = p.Z_PK FROM ZPERSON p "
                    + "JOIN ZDESK d ON d.Z_PK = p.ZDESK ORDER BY p.Z_PK")
                == [
                    ["Ada", "D2", "1"], ["Bob", "D3", "1"], ["Cy", "D1", "1"], ["Eve", "D4", "1"],
                ])
        #expect(
            try chain.rows(
                context,
                "SELECT COUNT(*) FROM ZBADGE b LEFT JOIN ZPERSON p ON p.ZBADGE = b.Z_PK "
                    + "WHERE p.Z_PK IS NOT b.ZHOLDER")
                == [["0"]])
    }

    // MARK: - Ordered relationships

    static let music1 = #"""
        {
          "Playlist": {
            "attributes": { "name": { "type": "string" } },
            "relationships": {
              "tracks": { "destination": "Track", "inverse": "playlist", "toMany": true,
                          "ordered": true, "optional": true },
              "favorites": { "destination": "Track", "inverse": "fans", "toMany": true,
                             "optional": true },
              "mix": { "destination": "Track", "inverse": "mixes", "toMany": true,
                       "ordered": true, "optional": true }
            }
          },
          "Track": {
            "attributes": { "name": { "type": "string" } },
            "relationships": {
              "playlist": { "destination": "Playlist", "inverse": "tracks", "optional": true },
              "fans": { "destination": "Playlist", "inverse": "favorites", "toMany": true,
                        "optional": true },
              "mixes": { "destination": "Playlist", "inverse": "mix", "toMany": true,
                         "optional": true }
            }
          }
        }
        """#
    static let music2 = #"""
        {
          "Playlist": {
            "attributes": { "name": { "type": "string" } },
            "relationships": {
              "queue": { "destination": "Track", "inverse": "queuedIn", "toMany": true,
                         "ordered": true, "optional": true },
              "picks": { "destination": "Track", "inverse": "pickedBy", "toMany": true,
                         "ordered": true, "optional": true },
              "blend": { "destination": "Track", "inverse": "blends", "toMany": true,
                         "ordered": true, "optional": true }
            }
          },
          "Track": {
            "attributes": { "name": { "type": "string" } },
            "relationships": {
              "queuedIn": { "destination": "Playlist", "inverse": "queue", "optional": true },
              "pickedBy": { "destination": "Playlist", "inverse": "picks", "toMany": true,
                            "ordered": true, "optional": true },
              "blends": { "destination": "Playlist", "inverse": "blend", "toMany": true,
                          "optional": true }
            }
          }
        }
        """#

    /// A version-1 music store: tracks T1…T5, playlists Morning (T3, T1, T5)
    /// and Evening (T2, T4) in stored orders that differ from primary-key
    /// order; `more` adds links to the tracks and the two playlists.
    static func makeMusicStore(
        _ chain: MappingEdgeCaseChain,
        more: ([ManagedObject], ManagedObject, ManagedObject) throws -> Void
    ) throws {
        try chain.makeStore { context in
            var tracks: [ManagedObject] = []
            for number in 1...5 {
                let track = try context.insert("Track")
                try track.set("name", "T\(number)")
                tracks.append(track)
            }
            let morning = try context.insert("Playlist")
            try morning.set("name", "Morning")
            let evening = try context.insert("Playlist")
            try evening.set("name", "Evening")
            for (position, track) in [2, 0, 4].enumerated() {
                try morning.insert(tracks[track], into: "tracks", at: position)
            }
            try evening.add(tracks[3], to: "tracks")
            try evening.insert(tracks[1], into: "tracks", at: 0)
            try more(tracks, morning, evening)
        }
    }

    /// `from` remaps into an ordered to-many (a `Z_FOK_` column beside the
    /// inverse's key) and into ordered many-to-many relationships (`Z_FOK_`
    /// columns in the join table): an ordered source keeps its stored
    /// order, an unordered one gives primary-key order, and an ordered
    /// inverse lists its owners in the order the rule visits them (primary
    /// key).
    @Test func testRemapsIntoOrderedRelationshipsKeepTheSourceOrder() throws {
        let chain = try MappingEdgeCaseChain(
            "Music", v1: Self.music1, v2: Self.music2,
            mapping: #"""
                "entities": { "Playlist": { "relationships": {
                  "queue": { "from": "tracks" },
                  "picks": { "from": "favorites" },
                  "blend": { "from": "mix" } } } },
                "discard": ["Track.playlist", "Track.fans", "Track.mixes"]
                """#)
        try Self.makeMusicStore(chain) { tracks, morning, evening in
            for track in [3, 1, 0] { try morning.add(tracks[track], to: "favorites") }
            try evening.add(tracks[0], to: "favorites")
            for track in [4, 1, 2] { try morning.add(tracks[track], to: "mix") }
            for track in [2, 0] { try evening.add(tracks[track], to: "mix") }
        }

        try chain.migrate()

        let context = try chain.open()
        let lists = try context.all("Playlist")
        #expect(try lists.map { try $0.string("name") } == ["Morning", "Evening"])
        #expect(try lists.map { try $0.names("queue") } == [["T3", "T1", "T5"], ["T2", "T4"]])
        #expect(try lists.map { try $0.names("picks") } == [["T1", "T2", "T4"], ["T1"]])
        #expect(try lists.map { try $0.names("blend") } == [["T5", "T2", "T3"], ["T3", "T1"]])
        let tracks = try context.all("Track")
        #expect(
            try tracks.map { try $0.object(forKey: "queuedIn")?.string("name") } == [
                "Morning", "Evening", "Morning", "Evening", "Morning",
            ])
        #expect(
            try tracks.map { try $0.names("pickedBy") } == [
                ["Morning", "Evening"], ["Morning"], [], ["Morning"], [],
            ])
        #expect(
            try tracks.map { Set(try $0.names("blends")) } == [
                ["Evening"], ["Morning"], ["Morning", "Evening"], [], ["Morning"],
            ])
        // The positions themselves: distinct and increasing in list order.
        #expect(
            try chain.rows(
                context,
                "SELECT ZQUEUEDIN, group_concat(Z_PK) FROM (SELECT * FROM ZTRACK "
                    + "ORDER BY Z_FOK_QUEUEDIN) GROUP BY ZQUEUEDIN ORDER BY ZQUEUEDIN")
                == [["1", "3,1,5"], ["2", "2,4"]])
        #expect(
            try chain.rows(
                context,
                "SELECT COUNT(*), COUNT(DISTINCT ZQUEUEDIN || '.' || Z_FOK_QUEUEDIN) FROM ZTRACK")
                == [["5", "5"]])
    }
    /// A rule on the to-one side of an ordered to-many (`queuedIn` from
    /// `playlist`) keeps each track's stored place in its playlist: the
    /// source order, not the order the rule visits the tracks.
    @Test func testToOneSideRemapKeepsTheStoredOrderOfTheInverse() throws {
        let chain = try MappingEdgeCaseChain(
            "Music", v1: Self.music1, v2: Self.music2,
            mapping: #"""
                "entities": { "Track": { "relationships": {
                  "queuedIn": { "from": "playlist" } } } },
                "discard": ["Track.fans", "Track.mixes"]
                """#)
        try Self.makeMusicStore(chain) { _, _, _ in }

        try chain.migrate()

        let context = try chain.open()
        let lists = try context.all("Playlist")
        #expect(try lists.map { try $0.names("queue") } == [["T3", "T1", "T5"], ["T2", "T4"]])
    }
}
