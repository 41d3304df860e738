"""A function file in which every AST node type occurs, for the tests of the walker and
of the per-node tables (``test_every_node_type_occurs`` keeps it complete)."""

from __future__ import annotations

from mlang.syntax import ast, parse

SOURCE = """\
function [out, varargout] = every_node(a, ~, opts)
arguments
    a (1,:) double {mustBePositive} = 1
    opts.Name char = 'x'
end
global G
persistent P
x = [1, -2; 3' 4.'];
t = [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; -1 -2 -3 -4 -5 -6 -7 -8 -9 -10 -11 -12 -13 -14 -15 -16];
c = {'text', "string"};
u = a+1+2+3+4+5+6+7+8+9+1+2+3+4+5+6+7+8+9+1+2+3+4+5+6+7+8+9+1+2+3+4+5+6+7+8+9+1+2+3+4+5+6+7+8+9+1+2+3+4+5+6+7+8+9+1+2+3+4+5+6+7+8+9+1+2+3+4+5+6+7+8+9-1;
r = 1:2:10;
y = x(end, :);
z = c{1};
s.f = 1;
v = s.(z);
plot(x, Color='red');
h = @sin;
g = @(t) t + a;
w = (x);
[p, ~] = size(x);
hold on
if a > 1 && ~isempty(x)
    disp(1)
elseif a < 0
    return
else
    disp(2)
end
for k = 1:3
    if k == 2, continue, end
    break
end
parfor (j = 1:4, 2)
    disp(j)
end
while false
end
switch a
    case 1
        disp(1)
    otherwise
        disp(2)
end
try
    error('x')
catch err
    disp(err)
end
    function inner()
    end
end
"""


def every_node_program() -> ast.Program:
    return parse(SOURCE, "every_node.m")
