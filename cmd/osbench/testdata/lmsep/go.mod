module example.com/lmsep

go 1.25
