agent "ok" {
  command = ["sh", "agent.sh"]
}

agent "ok" { # ERROR: An agent named "ok" is already declared
  command = ["sh"]
}

agent "bad name!" { # ERROR: cannot name a agent
  command = ["sh"]
}

agent "empty" {
  command = [] # ERROR: must name a program
}

agent "typed" {
  command = ["sh", 3] # ERROR: must be a list of strings
  colour  = "blue"    # ERROR: Unsupported argument
}

agent "budgets" {
  command = ["sh"]
  budget {
    wall  = "forever" # ERROR: must be a Go duration
    steps = 0         # ERROR: must be between 1 and 100000
  }
  budget { # ERROR: Duplicate budget block
  }
}

agent "costs" {
  command = ["sh"]
  budget {
    cost = 0 # ERROR: must be more than 0 and at most 100000 US dollars, not 0
  }
}

agent "costly" {
  command = ["sh"]
  budget {
    steps = 1.5    # ERROR: must be a whole number, not 1.5
    cost  = "2.5$" # ERROR: must be a number of US dollars, not a string
  }
}

agent "negative" {
  command = ["sh"]
  budget {
    cost = -1 # ERROR: not -1
  }
}

agent "noport" {
  command = ["sh"]
  network {
    allow = ["llm.example:443", "llm.example"] # ERROR: "llm.example" is not a host:port endpoint
  }
}

agent "url" {
  command = ["sh"]
  network {
    allow = ["https://llm.example:443"] # ERROR: is not a host:port endpoint
  }
}

agent "port0" {
  command = ["sh"]
  network {
    allow = ["llm.example:0"] # ERROR: has no port from 1 to 65535
  }
}

agent "twice" {
  command = ["sh"]
  network {
    allow = ["LLM.example:443", "llm.example:443"] # ERROR: llm.example:443 is listed twice
  }
}

agent "secrets" {
  command    = ["sh"]
  env        = { API_KEY = "x" }
  secret_env = ["API_KEY"] # ERROR: API_KEY is in secret_env and in env
}

agent "nonet" {
  command = ["sh"]
  network { # ERROR: Missing required argument
  }
}

agent "files" {
  command = ["sh"]
  files   = ["a/run.sh", "b/run.sh"] # ERROR: two files are named run.sh
}

agent "abs" {
  command = ["sh"]
  files   = ["/etc/passwd"] # ERROR: is not a file path relative
}
