% bench/startup.py runs this file: the start-up of mlang running a script file (its
% parse comes from the AST cache after the first run).
x = 1;
