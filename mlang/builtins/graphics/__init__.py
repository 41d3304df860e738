"""Graphics: MATLAB's figures, axes and plots, drawn with matplotlib.

matplotlib is imported on the first graphics call (``backend.matplotlib()``), never
when a program draws nothing.  The modules:

* ``state``: the session's graphics (``graphics_state(interp)``, in
  ``interp.family_state["graphics"]``): figures by number, the current figure, how figures
  are output; ``configure(interp, figures_dir, wait, windows)`` is what a front end calls.
* ``handles``: ``GraphicsHandle``, the base of graphics objects (handle semantics),
  its property tables (``Prop``, ``define_properties``, ``add_properties``),
  ``GraphicsArray`` (several handles), ``Text``; ``props``: reading property values
  (colours, on/off, numbers, texts) with MATLAB's errors.
* ``figure_axes``: ``Root`` (groot), ``Figure``, ``Axes``, ``Legend``.
* ``figures``: figure, gcf, gca, groot, clf, cla, close, hold, ishold, subplot,
  tiledlayout, nexttile, axes, drawnow, shg, set, get, isgraphics, ishandle, isvalid,
  gobjects; for Python code ``current_figure(interp)``, ``current_axes(interp)``.
* ``plot_args``: the arguments of plot-like calls (axes first, line specs, x/y groups,
  name=value options); ``lines``: ``Line``, plot, plot3, line, semilogx, semilogy, loglog.
* ``output``: figure files at the program's end and on drawnow (``after_statement``
  for a Command Window), saveas, exportgraphics, print, getframe, frame2im;
  ``backend``: matplotlib, Agg or windows.
* ``colormaps``: parula, jet, turbo... and MATLAB's default colour order;
  ``images_color``: colormap, clim, caxis, colorbar and the colour mapping of objects
  with colour data; ``images``: image, imagesc, imshow; ``surfaces``: surf, mesh,
  pcolor, shading, view; ``surfaces_fields``: contour, contourf, quiver, quiver3.
* ``charts_*``: scatter, bar, area, histogram, hist, stairs, stem, errorbar, fill,
  patch, rectangle, xline, yline, text, confusionchart (on ``charts_base``).
* ``decorations``, ``decorations_axis``: titles, labels, legend, grid, box, axis, limits,
  ticks, colororder; ``text_markup``: TeX and LaTeX strings as matplotlib mathtext.
* ``animated``: animatedline, addpoints, clearpoints, getpoints.

Writing a plot function (``lines.draw_lines`` is the model)::

    from mlang.builtins.graphics.figures import current_axes
    from mlang.builtins.graphics.plot_args import leading_axes, option_pairs, apply_options

    @builtin("stairs", interp=True, nargout=True, max_out=1, dl="data")
    def stairs(interp, *args, nargout=0):
        axes, rest = leading_axes(args)      # plot(ax, ...)
        ...                                  # read the data (xy_groups for x/y pairs)
        axes = axes or current_axes(interp)  # gca, made when missing
        axes.prepare_plot()                  # hold off: clear and reset; hold on: keep
        color = axes.next_color()            # the colour order continues under hold
        obj = Stairs(axes, ...)              # parent = axes: a child of the axes
        apply_options(obj, option_pairs(options, "stairs"))  # name=value via its table
        axes.add(obj)                        # registered: legend entry, figure redrawn
        return obj if nargout else None

A new object class subclasses ``GraphicsHandle`` (``matlab_class``, ``type_name``,
``display_name``, ``display_order``), makes its matplotlib artist(s) in ``__init__``
(``axes.artist`` is the matplotlib axes; ``axes.ensure_3d()`` makes it 3-D), keeps its
data in slots, and declares its properties with ``define_properties(Cls, {Name:
Prop(get=..., set=..., default=...)})``: ``get(h)`` reads the value (else the stored
one or ``default``), ``set(h, value)`` checks it (``props``), applies it to the artist
and returns what to store (None: nothing).  ``h.Name``, ``h.Name = v``, ``set``, ``get``
and the creation options all go through that table; names match ignoring case.  An
object with several artists overrides ``remove_artist`` (delete, cla) and may give
``legend_artist()`` for its legend entry.  Other modules extend a class's table with
``add_properties(Axes, {...})`` (decorations: XTick, CLim, Colormap...).

Other hooks: ``axes.labels["Title"]`` (also "XLabel", "YLabel", "ZLabel") are the
``Text`` objects of the title and labels (``set_value("String", v)``);
``figure_axes.Legend(axes, [(handle, label), ...])`` makes a legend (its entries follow
deletions and, with AutoUpdate, new plots); ``figure.color_order`` (an m×3 array or
None) is the palette new and reset axes take (``colororder``); ``root.defaults`` holds
``set(groot, 'Default...', v)`` values, applied by ``h.apply_defaults()`` at the end of
a constructor.
"""

from mlang.registry import load_family

# The modules extend each other's objects as they load: the family loads as one.
load_family(__name__)
