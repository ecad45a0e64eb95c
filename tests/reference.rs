// (under construction)
