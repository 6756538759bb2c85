// MARK: - Observers

extension Context {
    /// Calls `handler` with the change set of every `event` from now on.
    ///
    /// - Returns: A token for ``removeObserver(_:)``.
    @discardableResult
    public func observe(_ event: ContextEvent, _ handler: @escaping (ChangeSet) -> Void)
        -> ObserverToken
    {
        let token = ObserverToken(value: (observers.keys.map(\.value).max() ?? 0) + 1)
        observers[token] = (event, handler)
        return token
    }

    /// Stops the observer behind `token`.
    public func removeObserver(_ token: ObserverToken) {
        observers[token] = nil
    }

    /// Posts the changes made since the last call as `objectsDidChange`.
    public func processPendingChanges() {
        guard !pendingChanges.isEmpty else { return }
        let changes = pendingChanges
        pendingChanges = ChangeSet()
        post(.objectsDidChange, changes)
    }

    func post(_ event: ContextEvent, _ changes: ChangeSet) {
        for (token, observer) in observers.sorted(by: { $0.key.value < $1.key.value })
        where observer.event == event && observers[token] != nil {
            observer.handler(changes)
        }
    }

    /// Registers a rule checked for every inserted or updated object of
    /// `entityName` at save, such as the diary's "an entry needs text or
    /// media": return nil to accept, or a message to refuse the save.
    public func setSaveRule(for entityName: String, _ rule: @escaping (ManagedObject) -> String?)
        throws
    {
        _ = try description(of: entityName)
        saveHooks[entityName] = rule
    }
}
