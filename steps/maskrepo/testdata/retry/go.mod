module retry

go 1.21
