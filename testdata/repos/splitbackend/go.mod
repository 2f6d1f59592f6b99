module example.com/splitbackend

go 1.22
