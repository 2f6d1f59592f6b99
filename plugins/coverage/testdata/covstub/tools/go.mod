module example.com/covstub/tools

go 1.22
