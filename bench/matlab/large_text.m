% large_text: whole-text functions on a 2e7-character char row.
s = repmat('abcdefghij', 1, 2e6);
cpu0 = cputime;
tic;
t = strrep(s, 'def', 'XY');
k = strfind(s, 'ghi');
u = upper(s);
n = sum(s == 'a');
r = fliplr(s);
c = [s t];
wall = toc;
cpu = cputime - cpu0;
if numel(t) ~= 18e6 || numel(k) ~= 2e6 || k(2) ~= 17 || u(3) ~= 'C' || n ~= 2e6 || r(1) ~= 'j' || numel(c) ~= 38e6
    error('bench:wrong', 'large_text computed a wrong result');
end
fprintf('large_text %.6f %.6f\n', cpu, wall);
