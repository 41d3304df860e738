% string_array_loop: string array elements built with "item" + i, strlength,
% + concatenation and == in a loop.  (GNU Octave has no string class.)
if ~exist('n', 'var'), n = 30000; end
s = strings(1, n);
total = 0;
hits = 0;
cpu0 = cputime;
tic;
for i = 1:n
    s(i) = "item" + i;
    t = s(i) + "_x";
    total = total + strlength(t);
    if s(i) == "item7"
        hits = hits + 1;
    end
end
wall = toc;
cpu = cputime - cpu0;
digits = sum(floor(log10(1:n)) + 1);
if total ~= digits + 6*n || hits ~= 1 || s(n) ~= "item" + n
    error('bench:wrong', 'string_array_loop computed %g', total);
end
fprintf('string_array_loop %.6f %.6f\n', cpu, wall);
