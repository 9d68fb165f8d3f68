import { useEffect, useState, type ComponentType } from 'react';

/**
 * A component whose module is fetched when it is first rendered (it renders nothing until then)
 * or ahead, with `preload`. Once the module is there, components rendered afterwards show it in
 * the same render. A module that does not arrive (no connection) is asked for again when the
 * browser is back online, rather than breaking the page around it as a failed React.lazy would.
 */
export function preloadable<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): { Component: ComponentType<P>; preload: () => Promise<unknown> } {
  let loaded: ComponentType<P> | null = null;
  const preload = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });

  function Preloadable(props: P) {
    const [Component, setComponent] = useState<ComponentType<P> | null>(() => loaded);
    useEffect(() => {
      if (Component !== null) return;
      let live = true;
      const attempt = () => {
        preload().then(
          (module) => {
            if (live) setComponent(() => module.default);
          },
          () => {
            if (live) window.addEventListener('online', attempt, { once: true });
          },
        );
      };
      attempt();
      return () => {
        live = false;
        window.removeEventListener('online', attempt);
      };
    }, [Component]);
    return Component === null ? null : <Component {...props} />;
  }
  return { Component: Preloadable, preload };
}
