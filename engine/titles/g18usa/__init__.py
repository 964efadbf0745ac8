"""18USA: the title's data and its random setup (rule 2); the game class comes later."""
