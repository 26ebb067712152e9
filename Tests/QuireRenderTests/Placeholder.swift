// Render tests
