% strrep_1e7: strrep on a 1e7-character char row.
if ~exist('n', 'var'), n = 1e7; end   % a multiple of 10
s = repmat('abc,defgh ', 1, n/10);
cpu0 = cputime;
tic;
t = strrep(s, 'def', 'XYZW');
wall = toc;
cpu = cputime - cpu0;
if numel(t) ~= n + n/10 || ~strcmp(t(1:11), 'abc,XYZWgh ')
    error('bench:wrong', 'strrep_1e7 computed a wrong result');
end
fprintf('strrep_1e7 %.6f %.6f\n', cpu, wall);
