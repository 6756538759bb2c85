/// Every saved object a context knows, one object per id.
///
/// Objects a save has just inserted are kept in runs of consecutive keys
/// rather than hashed one by one: a bulk import saves millions of objects
/// the caller drops at once, and moving each into a dictionary would cost
/// more than the insert itself. At the next save the runs are swept: objects
/// someone still holds (or that changed) move into the dictionary, the rest
/// are forgotten. The dictionary is swept the same way when it has doubled.
struct ObjectRegistry {
    /// A run of objects whose keys are `firstKey`, `firstKey + 1`, … in one
    /// inheritance tree.
    private struct Run {
        var firstKey: Int64
        var objects: [ManagedObject]
    }

    private var objects: [ObjectID: ManagedObject] = [:]
    private var runs: [Run] = []
    private var countAfterPurge = 0

    /// The object with `id`, if registered. Setting nil forgets it.
    subscript(id: ObjectID) -> ManagedObject? {
        get {
            if let object = objects[id] { return object }
            for run in runs
            where id.key >= run.firstKey && id.key < run.firstKey + Int64(run.objects.count) {
                let object = run.objects[Int(id.key - run.firstKey)]
                if object.objectID == id { return object }
            }
            return nil
        }
        set {
            if newValue == nil, !runs.isEmpty, self[id] != nil, objects[id] == nil {
                flushRuns(keepingAll: true)
            }
            objects[id] = newValue
        }
    }

    /// Every registered object.
    var values: [ManagedObject] {
        Array(objects.values) + runs.flatMap(\.objects)
    }

    /// Registers objects a save just inserted, in key order per tree.
    mutating func addSaved(_ saved: [ManagedObject], rootOf: (ManagedObject) -> Int) {
        flushRuns(keepingAll: false)
        var newRuns: [(root: Int, run: Run)] = []
        for object in saved {
            let key = object.objectID.key
            let root = rootOf(object)
            if let last = newRuns.indices.last(where: { newRuns[$0].root == root }),
                newRuns[last].run.firstKey + Int64(newRuns[last].run.objects.count) == key
            {
                newRuns[last].run.objects.append(object)
            } else {
                newRuns.append((root, Run(firstKey: key, objects: [object])))
            }
        }
        if newRuns.count <= 8 {
            runs = newRuns.map(\.run)
        } else {
            // Interleaved keys give many short runs: a dictionary is faster.
            for object in saved { objects[object.objectID] = object }
        }
        if objects.count > 2 * countAfterPurge + 1024 { purge() }
    }

    /// Moves the objects of the runs that someone still holds, or that
    /// changed (or all of them), into the dictionary, and drops the runs.
    private mutating func flushRuns(keepingAll: Bool) {
        for index in runs.indices {
            for position in runs[index].objects.indices {
                let held = keepingAll || !isKnownUniquelyReferenced(&runs[index].objects[position])
                let object = runs[index].objects[position]
                if held || object.hasChanges {
                    objects[object.objectID] = object
                } else {
                    object.isRegistered = false
                }
            }
        }
        runs = []
    }

    /// Purges when the dictionary has more than doubled since the last
    /// purge: fetches that only read (and never save) would otherwise keep
    /// every object they ever materialised.
    mutating func purgeIfGrown() {
        if objects.count > 2 * countAfterPurge + 1024 { purge() }
    }

    /// Forgets unchanged objects that nobody but the registry holds.
    mutating func purge() {
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
            objects[id]?.isRegistered = false
            objects[id] = nil
        }
        countAfterPurge = objects.count
    }

    /// Forgets every object.
    mutating func removeAll() {
        for object in values { object.isRegistered = false }
        objects = [:]
        runs = []
        countAfterPurge = 0
    }
}
