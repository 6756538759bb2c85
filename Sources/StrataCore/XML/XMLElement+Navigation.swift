import Foundation

// MARK: - Finding elements by name

extension XMLElement {
    /// The direct children named `name`, in document order.
    ///
    /// - Parameter name: The qualified element name.
    /// - Returns: The matching children; empty when there are none.
    public func children(named name: String) -> [XMLElement] {
        children.filter { $0.name == name }
    }

    /// The first direct child named `name`, or nil.
    ///
    /// - Parameter name: The qualified element name.
    public func child(named name: String) -> XMLElement? {
        children.first { $0.name == name }
    }

    /// Every element below this one named `name`, in document order
    /// (depth-first, parents before their children). The element itself is
    /// not included.
    ///
    /// ```swift
    /// let indexes = model.root.descendants(named: "fetchIndexElement")
    /// ```
    ///
    /// - Parameter name: The qualified element name.
    /// - Returns: The matching descendants; empty when there are none.
    public func descendants(named name: String) -> [XMLElement] {
        var found: [XMLElement] = []
        // An explicit stack rather than recursion: depth stays bounded anyway
        // (libxml2 refuses nesting deeper than 256), but this costs nothing.
        var stack = children.reversed() as [XMLElement]
        while let element = stack.popLast() {
            if element.name == name { found.append(element) }
            stack.append(contentsOf: element.children.reversed())
        }
        return found
    }
}
