package rust

// RustNeutralError is the io::Error placeholder, for the external tests.
var RustNeutralError = rustNeutralError
