// A layer above Core sees the values it is built on (ARCHITECTURE.md): `import StrataCore`
// brings StrataValues too.
@_exported import StrataValues
