import StrataStore

/// Every saved object a context knows, one object per id.
///
/// Objects a save has just inserted, and objects a fetch has just read in
/// key order, are kept in runs of increasing keys rather than hashed one by
/// one: a bulk import saves millions of objects the caller drops at once,
/// and a fetch reads thousands the caller drops after use; moving each into
/// a dictionary (and out again) would cost more than reading the row. At
/// the next save, or when the runs have grown, they are swept: objects
/// someone still holds (or that changed) move into the dictionary, the rest
/// are forgotten. The dictionary is swept the same way when it has doubled.
package struct ObjectRegistry {
    /// Objects in strictly increasing key order (usually consecutive keys),
    /// with their keys alongside: a lookup reads no object's (exclusively
    /// accessed) id until the key matches.
    private struct Run {
        var keys: [Int64] = []
        var objects: [ManagedObject] = []

        init(_ object: ManagedObject? = nil) {
            if let object { append(object) }
        }

        /// A run of `objects`, whose keys are `keys`.
        init(keys: [Int64], objects: [ManagedObject]) {
            self.keys = keys
            self.objects = objects
        }

        package mutating func append(_ object: ManagedObject) {
            keys.append(object.objectID.key)
            objects.append(object)
        }

        package mutating func remove(at index: Int) {
            keys.remove(at: index)
            objects.remove(at: index)
        }

        /// The position of `key` in the run, if present: found directly when
        /// the keys before it are consecutive, else by binary search.
        package func index(ofKey key: Int64) -> Int? {
            guard let first = keys.first, key >= first, let last = keys.last, key <= last
            else { return nil }
            let guess = Int(key - first)
            if guess < keys.count, keys[guess] == key { return guess }
            var low = 0
            var high = keys.count - 1
            while low <= high {
                let middle = (low + high) / 2
                if keys[middle] == key { return middle }
                if keys[middle] < key { low = middle + 1 } else { high = middle - 1 }
            }
            return nil
        }
    }

    /// More runs than this are swept: every lookup of an unregistered id
    /// checks each run's bounds.
    private static let maxRuns = 16

    private var objects: [ObjectID: ManagedObject] = [:]
    private var runs: [Run] = []
    /// The number of objects in `runs`.
    private var runObjectCount = 0
    /// Whether the last run belongs to the fetch in progress, which appends
    /// to it while keys increase.
    private var fetchRunIsOpen = false
    private var countAfterPurge = 0

    /// The object with `id`, if registered. Setting nil forgets it.
    subscript(id: ObjectID) -> ManagedObject? {
        get {
            // Skips hashing while fetched objects live in runs only.
            if !objects.isEmpty, let object = objects[id] { return object }
            for index in runs.indices {
                if let position = runs[index].index(ofKey: id.key),
                    runs[index].objects[position].objectID == id
                {
                    return runs[index].objects[position]
                }
            }
            return nil
        }
        set {
            removeFromRuns(id)
            objects[id] = newValue
        }
    }

    /// Takes the object with `id` out of the runs, if it is in one, so that
    /// a sweep cannot bring it back.
    private mutating func removeFromRuns(_ id: ObjectID) {
        for index in runs.indices {
            guard let position = runs[index].index(ofKey: id.key),
                runs[index].objects[position].objectID == id
            else { continue }
            runs[index].remove(at: position)
            runObjectCount -= 1
            return
        }
    }

    /// Every registered object.
    var values: [ManagedObject] {
        Array(objects.values) + runs.flatMap(\.objects)
    }

    /// Registers an object a save just inserted, in key order per tree.
    mutating func addSaved(_ saved: [ManagedObject], rootOf: (ManagedObject) -> Int) {
        flushRuns(keepingAll: false)
        if let run = Self.singleRun(saved, rootOf: rootOf) {
            // A bulk insert: one run sharing the caller's array.
            runs = [run]
            runObjectCount = saved.count
            if objects.count > 2 * countAfterPurge + 1024 { purgeDictionary() }
            return
        }
        var newRuns: [(root: Int, run: Run)] = []
        for object in saved {
            let key = object.objectID.key
            let root = rootOf(object)
            if let last = newRuns.indices.last(where: { newRuns[$0].root == root }),
                let lastKey = newRuns[last].run.keys.last, lastKey + 1 == key
            {
                newRuns[last].run.append(object)
            } else {
                newRuns.append((root, Run(object)))
            }
        }
        if newRuns.count <= 8 {
            runs = newRuns.map(\.run)
            runObjectCount = saved.count
        } else {
            // Interleaved keys give many short runs: a dictionary is faster.
            for object in saved { objects[object.objectID] = object }
        }
        // The new runs stay: the caller's array still holds their objects.
        if objects.count > 2 * countAfterPurge + 1024 { purgeDictionary() }
    }

    /// `saved` as one run, when its objects share a root and have
    /// consecutive keys (as a save of one entity's inserts gives them).
    private static func singleRun(_ saved: [ManagedObject], rootOf: (ManagedObject) -> Int)
        -> Run?
    {
        guard let first = saved.first else { return nil }
        let firstKey = first.objectID.key
        let root = rootOf(first)
        var description = first.description_
        for (offset, object) in saved.enumerated() {
            guard object.objectID.key == firstKey + Int64(offset) else { return nil }
            // Objects of the last entity seen share its root.
            if object.description_ !== description {
                guard rootOf(object) == root else { return nil }
                description = object.description_
            }
        }
        return Run(keys: Array(firstKey..<firstKey + Int64(saved.count)), objects: saved)
    }

    /// Starts registering the rows of a fetch whose keys increase (no sort
    /// keys: primary-key order), in a run of their own.
    mutating func beginFetchRun() {
        fetchRunIsOpen = runs.count < Self.maxRuns
        if fetchRunIsOpen { runs.append(Run()) }
    }

    /// Ends the fetch's run; an empty one is dropped.
    mutating func endFetchRun() {
        if fetchRunIsOpen, runs.last?.objects.isEmpty == true { runs.removeLast() }
        fetchRunIsOpen = false
    }

    /// Registers an object a fetch just read, which is not registered yet:
    /// in the fetch's run while keys increase, else in the dictionary.
    mutating func addFetched(_ object: ManagedObject) {
        if fetchRunIsOpen, let last = runs.indices.last,
            runs[last].keys.last.map({ $0 < object.objectID.key }) ?? true
        {
            runs[last].append(object)
            runObjectCount += 1
        } else {
            objects[object.objectID] = object
        }
    }

    /// The registered object with `id`, or else the one `make` returns,
    /// registered as a fetched object (``addFetched(_:)``) or by id; with
    /// whether it was made. One call, so a fetched row costs one access to
    /// the context's registry instead of two. `make` must not use the
    /// registry.
    package mutating func object(
        for id: ObjectID, fetched: Bool, orMake make: () throws -> ManagedObject
    ) rethrows -> (object: ManagedObject, isNew: Bool) {
        if let object = self[id] { return (object, false) }
        let object = try make()
        if fetched {
            addFetched(object)
        } else {
            self[id] = object
        }
        return (object, true)
    }

    /// Moves the objects of the runs that someone still holds, or that
    /// changed (or all of them), into the dictionary, and drops the runs.
    private mutating func flushRuns(keepingAll: Bool) {
        for index in runs.indices {
            for position in runs[index].objects.indices {
                let held = keepingAll || !isKnownUniquelyReferenced(&runs[index].objects[position])
                let object = runs[index].objects[position]
                // An object only the run holds is left as it is: it dies with
                // the run, so nobody can see its `isRegistered` (a bulk import
                // drops every object this way).
                if held || object.hasChanges { objects[object.objectID] = object }
            }
        }
        // A fetch in progress (forEach purges between batches) goes on
        // with a fresh run.
        runs = fetchRunIsOpen ? [Run()] : []
        runObjectCount = 0
    }

    /// Purges when the registry has more than doubled since the last purge
    /// (or has many runs): fetches that only read (and never save) would
    /// otherwise keep every object they ever materialised.
    mutating func purgeIfGrown() {
        if runs.count >= Self.maxRuns || objects.count + runObjectCount > 2 * countAfterPurge + 1024
        {
            purge()
        }
    }

    /// Forgets unchanged objects that nobody but the registry holds.
    package mutating func purge() {
        flushRuns(keepingAll: false)
        purgeDictionary()
    }

    /// Forgets the unchanged objects of the dictionary that nobody else holds.
    private mutating func purgeDictionary() {
        var index = objects.values.startIndex
        var unused: [ObjectID] = []
        while index != objects.values.endIndex {
            if isKnownUniquelyReferenced(&objects.values[index]), !objects.values[index].hasChanges
            {
                unused.append(objects.values[index].objectID)
            }
            objects.values.formIndex(after: &index)
        }
        for id in unused {
            objects.removeValue(forKey: id)?.isRegistered = false
        }
        countAfterPurge = objects.count
    }

    /// Forgets every object.
    package mutating func removeAll() {
        for object in values { object.isRegistered = false }
        objects = [:]
        runs = []
        runObjectCount = 0
        fetchRunIsOpen = false
        countAfterPurge = 0
    }
}
