% deep_nesting: eval of an expression nested n/40 levels deep in parentheses
% (500, MATLAB's limit, by default) and of a chain 1+1+...+1 of n terms, 20 times each.
% (GNU Octave 7's parser runs out of stack beyond about 30000 terms.)
if ~exist('n', 'var'), n = 20000; end
depth = round(n/40);
nested = [repmat('(', 1, depth) '1' repmat('+1)', 1, depth)];
chain = ['1' repmat('+1', 1, n - 1)];
total = 0;
cpu0 = cputime;
tic;
for r = 1:20
    % a different text each time, so no engine can reuse an earlier parse
    total = total + eval([nested '+' int2str(r)]) + eval([chain '-' int2str(r)]);
end
wall = toc;
cpu = cputime - cpu0;
if total ~= 20*(depth + 1) + 20*n
    error('bench:wrong', 'deep_nesting computed %g', total);
end
fprintf('deep_nesting %.6f %.6f\n', cpu, wall);
