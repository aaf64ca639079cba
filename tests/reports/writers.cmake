# The Markdown, JSON, JUnit, SARIF and text report writers: structure and
# content on
# small fixed results (doctest). Included from this folder's CMakeLists.txt.
add_executable(report_writers_test
  ${CMAKE_CURRENT_LIST_DIR}/markdown_report_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_report_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/index_report_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/relay_style_reports_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/no_expectation_reports_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/file_names_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sarif_report_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/text_report_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lasso_reports_test.cpp)
target_link_libraries(report_writers_test PRIVATE oc_reports oc_scenarios
  oc_test_main)
oc_discover(report_writers_test unit)
target_compile_definitions(report_writers_test PRIVATE
  OC_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
