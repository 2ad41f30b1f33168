"""The hostile review's cases (issue 32), each kept from coming back through the production path:
forged button presses, metric labels, one chat's 429 holding up the others, spreadsheet formulas
and terminal escapes in reports, spoofed links, forget-me's cost and scope, hostile settings
documents, corrupted answer-log rows, and what held (webhook secrets, mentions, admins'
checks, redacted secrets)."""
