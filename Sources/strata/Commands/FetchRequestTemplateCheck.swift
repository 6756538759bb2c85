import Foundation
import Strata

/// Parses the predicate of every stored fetch request of a schema version
/// and checks its key paths against the request's entity, as Xcode does
/// when it compiles a model.
///
/// The schema layer cannot parse predicates (the parser sits a layer
/// above), so the commands hand this check to ``SchemaChain`` when they
/// load schemas, which locates its issues in the file like its own.
enum FetchRequestTemplateCheck {
    /// The problems of `model`'s fetch request predicates, at
    /// `$.fetchRequests.<name>.predicate`, each with the column in the
    /// predicate. `$VARIABLES` are left unbound (they are the template's
    /// parameters) and so are not type-checked.
    static func issues(in model: Model, file: String) -> [SchemaIssue] {
        var issues: [SchemaIssue] = []
        for request in model.fetchRequests {
            // A missing entity is the validator's issue already.
            guard let text = request.predicate, model.entity(named: request.entity) != nil
            else { continue }
            let path = SchemaIssue.path(keys: ["fetchRequests", request.name, "predicate"])
            let problem: (column: Int, message: String)?
            do {
                _ = try Strata.FetchPredicate(text, entity: request.entity, model: model)
                problem = nil
            } catch let error as PredicateSyntaxError {
                problem = (error.column, error.message)
            } catch let error as Strata.FetchPredicateError {
                problem = (error.column, error.message)
            } catch {
                problem = (1, "\(error)")
            }
            guard let problem else { continue }
            issues.append(
                SchemaIssue(
                    file: file, path: path,
                    message: "predicate \"\(text)\" of fetch request '\(request.name)', column "
                        + "\(problem.column): \(problem.message)"))
        }
        return issues
    }
}
