"""What a teacher shares: links that reopen a setup, and the matrices as files."""
