module example.com/forger

go 1.22
