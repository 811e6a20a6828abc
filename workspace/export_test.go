package workspace

// MaxUseEntries lets tests lower the bound of `!use FOLDER`.
var MaxUseEntries = &maxUseEntries
