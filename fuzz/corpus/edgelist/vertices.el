# vertices: 5
0 1
1 2
2 3
3 0
