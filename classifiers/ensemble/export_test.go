package ensemble

// DefaultParts is defaultParts for the external tests.
var DefaultParts = defaultParts
