// `import Strata` is the whole library: the layer targets' public API is
// re-exported here (ARCHITECTURE.md names what each layer holds).
@_exported import StrataCodegen
@_exported import StrataContext
@_exported import StrataCore
@_exported import StrataDiagram
@_exported import StrataFormats
@_exported import StrataJobs
@_exported import StrataMigration
@_exported import StrataQuery
@_exported import StrataSchema
@_exported import StrataStore
@_exported import StrataValues
