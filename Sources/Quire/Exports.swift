// The façade re-exports the value types other Swift programs need.
@_exported import QuireSystem
@_exported import QuireTypes
@_exported import QuireRender
@_exported import QuirePrint
@_exported import QuireSheets
